import ArgumentParser
import Foundation
import Strata
import StrataConformance
import StrataStores

/// `strata`: looks into, copies and checks store files of every built-in type.
@main
struct StrataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract:
            "Inspect, dump, query, search, convert, migrate, validate and sync Strata stores, and run the conformance suite.",
        version: StrataVersion.current,
        subcommands: [
            Demo.self, ModelSummary.self, Inspect.self, Dump.self, Query.self, Search.self, Convert.self, Migrate.self,
            Validate.self, Sync.self, SyncServerCommand.self, SyncToken.self,
            Conformance.self, DemoInterruptedSave.self,
        ])

    /// The environment variable that makes the executable the conformance worker of the store
    /// type it names: `strata conformance` sets it for the child processes the suite starts.
    static let workerEnvironmentKey = "STRATA_CONFORMANCE_WORKER"

    /// Runs the command line, or the conformance worker when ``workerEnvironmentKey`` is set.
    static func main() async {
        if let typeName = ProcessInfo.processInfo.environment[workerEnvironmentKey],
            let storeType = StoreFile.storeTypes.first(where: { $0.name == typeName })
        {
            Foundation.exit(
                ConformanceWorker.run(storeType: storeType, arguments: Array(CommandLine.arguments.dropFirst())))
        }
        await main(nil)
    }
}
