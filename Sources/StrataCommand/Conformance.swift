import ArgumentParser
import Foundation
import Strata
import StrataConformance
import StrataPostgres
import StrataStores

/// `strata conformance [TYPE…]`: runs the conformance suite against built-in store types.
struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the conformance suite against built-in store types and print the results.",
        discussion: """
            Each store type is tested in a fresh temporary directory. The durability checks kill this \
            executable, run as the store's worker, while it saves. Checks that need a way to mark a file \
            with a newer format version are reported as skipped; the package's test suite runs them. \
            PostgreSQL is tested only with --postgres, each check's stores in schemas of their own, \
            dropped when the check ends. Exit status 1 when any check failed.
            """)

    @Argument(
        help: "The store types to test (SQLite, LMDB, XML, Binary, InMemory, PostgreSQL); all of them by default.")
    var types: [String] = []

    @Option(
        name: .customLong("postgres"),
        help: ArgumentHelp(
            "A PostgreSQL database to test the PostgreSQL store in (postgresql://user@host:port/db).", valueName: "url")
    )
    var postgresURL: String?

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

    @Option(help: "The seed of every random choice, as a report prints it, to repeat a run; a random one when absent.")
    var seed: UInt64?

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
                let suite = ConformanceSuite(
                    storeType: storeType, storage: try storage(of: storeType), seed: seed,
                    workDirectory: directory, workerExecutable: Self.executableURL, durabilityKills: durabilityKills)
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

    /// Where the suite keeps the stores of `storeType`: files, memory, or schemas of the
    /// `--postgres` database.
    private func storage(of storeType: StoreType) throws -> ConformanceSuite.Storage {
        switch storeType.name {
        case StoreType.inMemory.name: return .memory
        case StoreType.postgres.name:
            guard let postgresURL, let database = URLComponents(string: postgresURL) else {
                throw CommandFailure(description: "Testing the PostgreSQL store needs --postgres with a database URL.")
            }
            let given = StoreFile.url(of: postgresURL)
            // Each store's connections carry its schema as their application name, so that the
            // durability checks can wait for the server to finish what a killed worker sent it.
            return .server(
                ConformanceSuite.ServerLocations(
                    name: given.nameInMessages,
                    locate: { place in
                        var components = database
                        components.queryItems =
                            (database.queryItems ?? []).filter { !["schema", "application_name"].contains($0.name) } + [
                                URLQueryItem(name: "schema", value: place),
                                URLQueryItem(name: "application_name", value: place),
                            ]
                        return components.url ?? given
                    },
                    awaitKilledClients: { url in try PostgresKilledClients.awaitWork(of: url) }))
        default: return .file(pathExtension: storeType.name.lowercased())
        }
    }

    private func selectedTypes() throws -> [StoreType] {
        let known = StoreType.builtInFileTypes + [.inMemory] + (postgresURL == nil ? [] : [.postgres])
        if postgresURL == nil, types.contains(where: { $0.lowercased() == StoreType.postgres.name.lowercased() }) {
            throw CommandFailure(description: "Testing the PostgreSQL store needs --postgres with a database URL.")
        }
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
                + "\(summary.waived) waived, seed \(summary.seed)")
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
