import Foundation
import StrataConformance

@testable import StrataLMDB

// The conformance worker of the LMDB store: the durability and unreadable-file checks of
// LMDBStoreConformanceTests run it in a child process.
exit(ConformanceWorker.run(storeType: .lmdb, arguments: Array(CommandLine.arguments.dropFirst())))
