import Foundation
import StrataConformance
import StrataTestSupport

// The conformance worker of the JSON file store: the durability and unreadable-file checks of
// JSONFileStoreConformanceTests run it in a child process.
exit(ConformanceWorker.run(storeType: .jsonFile(), arguments: Array(CommandLine.arguments.dropFirst())))
