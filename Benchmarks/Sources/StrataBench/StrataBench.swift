import ArgumentParser
import Foundation

/// `make bench`: every Strata store against its raw floor and against GRDB.
@main
struct StrataBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-bench", abstract: "Measures every Strata store against its raw floor and against GRDB.",
        subcommands: [Run.self, Probe.self, Fill.self, SyncProbe.self], defaultSubcommand: Run.self)
}

/// The benchmark run.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Runs every workload and prints the report.")

    @Flag(
        help: """
            N = 20 000, 5 repetitions, and 10 000 × N / 100 000 objects loaded, updated, deleted \
            and parents traversed, for a run of under two minutes.
            """)
    var quick = false

    @Flag(help: "Print only the JSON report on standard output.")
    var json = false

    @Option(help: "The number of objects (default 100 000, or 20 000 with --quick).")
    var count: Int?

    @Option(help: "Timed repetitions of each workload after one warm-up (at least 5).")
    var repetitions: Int?

    @Option(
        name: .customLong("store"),
        help: "Measure only this store (SQLite, LMDB, XML, Binary, PostgreSQL, InMemory); repeatable.")
    var stores: [String] = []

    @Option(name: .customLong("workload"), help: "Run only this workload, such as fetch-all; repeatable.")
    var workloads: [Workload] = []

    @Option(
        help: ArgumentHelp(
            "Only measure converting a SQLite store of this many objects to LMDB: time and peak memory.",
            valueName: "count"))
    var convertMemory: Int?

    @Option(
        help: ArgumentHelp(
            "Only measure a bounding-box query on this many points in a SQLite store: through the R-tree, a binary "
                + "index and a full scan.",
            valueName: "points"))
    var boundingBox: Int?

    @Option(
        help: ArgumentHelp(
            "Only measure a search index of this many photos in a SQLite store: its first export, keeping it "
                + "current after updates, and queries, against the same FTS5 work by hand.",
            valueName: "photos"))
    var search: Int?

    @Option(
        help: ArgumentHelp(
            "Only measure sync through a hub served over HTTP on loopback: an initial sync of this many objects into "
                + "an empty SQLite replica, steady-state changes a second, propagation p50 and p99, and a local "
                + "save with sync on.",
            valueName: "count"))
    var sync: Int?

    func validate() throws {
        if let repetitions, repetitions < 5 { throw ValidationError("--repetitions must be at least 5.") }
        if let count, count < 1_000 { throw ValidationError("--count must be at least 1000.") }
    }

    func run() async throws {
        if let sync {
            defer { ScratchDirectory.removeRoot() }
            let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(("· " + $0 + "\n").utf8)) }
            for line in try await SyncBench.measure(count: sync, log: log) { print(line) }
            return
        }
        if let boundingBox {
            defer { ScratchDirectory.removeRoot() }
            let log = { (line: String) in FileHandle.standardError.write(Data(("· " + line + "\n").utf8)) }
            let lines = try BoundingBoxQuery.measure(
                count: boundingBox, repetitions: repetitions ?? (quick ? 5 : 7), log: log)
            for line in lines { print(line) }
            return
        }
        if let search {
            defer { ScratchDirectory.removeRoot() }
            let log = { (line: String) in FileHandle.standardError.write(Data(("· " + line + "\n").utf8)) }
            let lines = try SearchExport.measure(count: search, repetitions: repetitions ?? (quick ? 5 : 7), log: log)
            for line in lines { print(line) }
            return
        }
        if let convertMemory {
            defer { ScratchDirectory.removeRoot() }
            let log = { (line: String) in FileHandle.standardError.write(Data(("· " + line + "\n").utf8)) }
            let (milliseconds, peak) = try ConversionMemory.measure(store: "SQLite", count: convertMemory, log: log)
            print(
                String(
                    format: "convert %d objects SQLite → LMDB: %.0f ms, peak RSS %.1f MiB", convertMemory, milliseconds,
                    peak / 1_048_576))
            return
        }
        let suite = BenchSuite(
            count: count ?? (quick ? 20_000 : 100_000), repetitions: repetitions ?? (quick ? 5 : 7),
            scalesTouched: quick,
            stores: stores,
            workloads: workloads,
            log: { FileHandle.standardError.write(Data(("· " + $0 + "\n").utf8)) })
        defer { ScratchDirectory.removeRoot() }
        let report = try suite.run()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(ReportTable.render(report))
        }
    }
}

extension Workload: ExpressibleByArgument {}

/// One sync of a replica, timed with its peak memory, run by `--sync` in a child process.
struct SyncProbe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync-probe", shouldDisplay: false)

    @Argument var replica: String
    @Argument var server: String
    @Argument var token: String

    func run() async throws { try await SyncBench.probe(path: replica, server: server, token: token) }
}

/// One memory measurement, run by the benchmark in a child process of its own.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(shouldDisplay: false)

    @Argument var store: String
    @Argument var kind: String
    @Argument var folder: String
    @Argument var output: String
    @Option var repetitions = 1
    @Flag var warmUp = false

    func run() throws {
        guard let kind = MemoryProbe.Kind(rawValue: kind) else { throw ValidationError("Unknown probe '\(kind)'.") }
        try MemoryProbe.run(
            store: store, kind: kind, folder: URL(fileURLWithPath: folder), output: URL(fileURLWithPath: output),
            repetitions: repetitions, warmUp: warmUp)
    }
}

/// Fills a store for a conversion measurement, run by the benchmark in a child process of its own.
struct Fill: ParsableCommand {
    static let configuration = CommandConfiguration(shouldDisplay: false)

    @Argument var store: String
    @Argument var count: Int
    @Argument var folder: String

    func run() throws {
        try ConversionMemory.fill(store: store, count: count, folder: URL(fileURLWithPath: folder))
    }
}
