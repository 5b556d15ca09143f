import ArgumentParser
import Foundation
import Strata
import StrataConformance
import StrataStores

/// `strata conformance [TYPE…]`: runs the conformance suite against built-in store types.
struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the conformance suite against built-in store types and print the results.",
        discussion: """
            Each store type is tested in a fresh temporary directory. The durability checks kill this \
            executable, run as the store's worker, while it saves. Checks that need a way to mark a file \
            with a newer format version are reported as skipped; the package's test suite runs them. \
            Exit status 1 when any check failed.
            """)

    @Argument(help: "The store types to test (SQLite, LMDB, XML, Binary); all of them by default.")
    var types: [String] = []

    @Flag(help: "Print one JSON object with the results of every store type.")
    var json = false

    @Option(help: "How many times each durability check kills a saving worker; the suite's default when absent.")
    var durabilityKills: Int?

    func run() throws {
        var failed = false
        try reportingFailure {
            let storeTypes = try selectedTypes()
            var summaries: [ConformanceSummary] = []
            for storeType in storeTypes {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "strata-conformance-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                setenv(StrataCommand.workerEnvironmentKey, storeType.name, 1)
                let suite = ConformanceSuite(
                    storeType: storeType, storage: .file(pathExtension: storeType.name.lowercased()),
                    workDirectory: directory, workerExecutable: Self.executableURL, durabilityKills: durabilityKills)
                summaries.append(ConformanceSummary(suite.run()))
            }
            failed = summaries.contains { $0.failed > 0 }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(ConformanceDocument(stores: summaries))
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            } else {
                for summary in summaries { printTable(summary) }
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// This executable, which the suite runs as the worker.
    private static var executableURL: URL {
        Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }

    private func selectedTypes() throws -> [StoreType] {
        let known = StoreType.builtInFileTypes
        return try types.map { name in
            guard let type = known.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw CommandFailure(
                    description: "Unknown store type '\(name)'; choose from "
                        + known.map(\.name).joined(separator: ", ") + ".")
            }
            return type
        }.nilIfEmpty ?? known
    }

    private func printTable(_ summary: ConformanceSummary) {
        print(
            "\(summary.type): \(summary.passed) passed, \(summary.failed) failed, \(summary.skipped) skipped, "
                + "\(summary.waived) waived")
        print(
            "  capabilities: " + (summary.capabilities.isEmpty ? "none" : summary.capabilities.joined(separator: ", ")))
        for failure in summary.failures {
            print("  FAILED \(failure.check): \(failure.message)")
        }
    }
}

extension Array {
    /// The array, or `nil` when it is empty.
    fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
