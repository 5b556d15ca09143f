import Foundation
import StrataConformance
import StrataTestSupport

// The conformance worker of the JSON file store: the durability and unreadable-file checks of
// JSONFileStoreConformanceTests run it in a child process. Run under a name ending in
// `-in-place` or `-on-close` (links the negative controls make), its store has the
// `JSONFileStore.Failure` of that name, which the durability checks must catch.

let program = CommandLine.arguments[0]
let failure: JSONFileStore.Failure =
    program.hasSuffix("-in-place") ? .writesInPlace : program.hasSuffix("-on-close") ? .writesOnClose : .none
exit(ConformanceWorker.run(storeType: .jsonFile(failure: failure), arguments: Array(CommandLine.arguments.dropFirst())))
