import Foundation
import JournalStore
import StrataConformance

// The journal store's conformance worker: the durability and unreadable-file checks run it in
// a child process, which they kill in the middle of saves.
exit(ConformanceWorker.run(storeType: .journal, arguments: Array(CommandLine.arguments.dropFirst())))
