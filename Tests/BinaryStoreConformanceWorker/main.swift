import Foundation
import StrataBinary
import StrataConformance

// The conformance worker of the binary store: the durability and unreadable-file checks of
// BinaryStoreConformanceTests run it in a child process.
exit(ConformanceWorker.run(storeType: .binary, arguments: Array(CommandLine.arguments.dropFirst())))
