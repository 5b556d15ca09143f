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

    @Argument(help: "The store types to test (SQLite, LMDB, XML, Binary, InMemory); all of them by default.")
    var types: [String] = []

    @Option(
        name: .customLong("check"),
        help: "Run only this check (its ID, such as I.valuesBySlotSaveAsByName); repeatable.")
    var checkIDs: [String] = []

    @Option(
        name: .customLong("category"),
        help:
            "Run only the checks of this category (its letter, such as F, or its name, such as predicates); repeatable."
    )
    var categoryNames: [String] = []

    @Flag(help: "Print one JSON object with the results of every store type.")
    var json = false

    @Option(help: "How many times each durability check kills a saving worker; the suite's default when absent.")
    var durabilityKills: Int?

    func run() throws {
        var failed = false
        try reportingFailure {
            let storeTypes = try selectedTypes()
            let checks = try selectedChecks()
            var summaries: [ConformanceSummary] = []
            for storeType in storeTypes {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "strata-conformance-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                setenv(StrataCommand.workerEnvironmentKey, storeType.name, 1)
                let storage: ConformanceSuite.Storage =
                    storeType.name == StoreType.inMemory.name
                    ? .memory : .file(pathExtension: storeType.name.lowercased())
                let suite = ConformanceSuite(
                    storeType: storeType, storage: storage, workDirectory: directory,
                    workerExecutable: Self.executableURL, durabilityKills: durabilityKills)
                summaries.append(ConformanceSummary(suite.run(checks)))
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

    /// The checks `--check` and `--category` name (a check named by either runs), in the
    /// suite's order; every check when neither is given.
    private func selectedChecks() throws -> [ConformanceCheck] {
        let all = ConformanceCategory.allCases.flatMap(\.checks)
        guard !checkIDs.isEmpty || !categoryNames.isEmpty else { return all }
        let categories = try categoryNames.map { name in
            guard
                let category = ConformanceCategory.allCases.first(where: {
                    $0.rawValue.lowercased() == name.lowercased() || "\($0)".lowercased() == name.lowercased()
                })
            else {
                throw CommandFailure(
                    description: "Unknown check category '\(name)'; choose from "
                        + ConformanceCategory.allCases.map { "\($0.rawValue) (\($0))" }.joined(separator: ", ") + ".")
            }
            return category
        }
        for id in checkIDs where !all.contains(where: { $0.id == id }) {
            throw CommandFailure(
                description: "Unknown check '\(id)'; `strata conformance --help` says how to name one.")
        }
        return all.filter { check in checkIDs.contains(check.id) || categories.contains(check.category) }
    }

    private func selectedTypes() throws -> [StoreType] {
        let known = StoreType.builtInFileTypes + [.inMemory]
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
