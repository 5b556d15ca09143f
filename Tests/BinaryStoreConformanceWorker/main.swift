import Foundation
import StrataConformance

@testable import StrataBinary

// The conformance worker of the binary store: the durability and unreadable-file checks of
// BinaryStoreConformanceTests run it in a child process.
exit(ConformanceWorker.run(storeType: .binary, arguments: Array(CommandLine.arguments.dropFirst())))
