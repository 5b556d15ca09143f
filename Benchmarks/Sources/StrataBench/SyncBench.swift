import Foundation
import Logging
import Strata
import StrataSQLite
import StrataSync
import StrataSyncServer

/// `--sync COUNT`: sync through a hub in a SQLite store served over HTTP on loopback.
///
/// - initial sync: COUNT books pushed by one replica, pulled into an empty SQLite replica in a
///   child process (its time and peak resident size);
/// - steady state: 20 000 (or COUNT) title changes pushed by one replica, applied by another
///   (in a child process that opens it first, so that only the sync is timed), in changes a
///   second;
/// - propagation: a save on one replica until a watching replica has saved it too, with pulls
///   woken by the hub's long-poll, 200 times: p50 and p99;
/// - a local save of 1 000 new books in a replica whose engine watches, against the same save
///   in a store with history alone, and the collection of those changes by a sync.
enum SyncBench {
    static let model: ManagedObjectModel = {
        let app = ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32, default: 0)
            }
        }
        let model = try! SyncModel.replicaModel(for: app)
        try? model.freeze()
        return model
    }()

    static func open(_ url: URL, model: ManagedObjectModel = model) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite])
        try coordinator.addStore(type: "SQLite", at: url, options: StoreOptions(tracksPersistentHistory: true))
        return coordinator
    }

    static func insertBooks(_ count: Int, into coordinator: PersistentStoreCoordinator, batch: Int = 10_000) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            var made = 0
            while made < count {
                for number in made..<min(made + batch, count) {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue(.string("Book \(number)"), forKey: "title")
                    try book.setValue(.integer32(Int32(number % 900)), forKey: "pages")
                }
                try context.save()
                context.reset()
                made = min(made + batch, count)
            }
        }
    }

    static func measure(count: Int, log: @escaping @Sendable (String) -> Void) async throws -> [String] {
        let scratch = try ScratchDirectory("sync")
        defer { scratch.remove() }
        let names = ["seeder", "initial", "writer", "watcher"]
        var coordinators: [String: PersistentStoreCoordinator] = [:]
        var tokens = AccessTokens()
        var tokenOf: [String: String] = [:]
        for name in names {
            let coordinator = try open(scratch.url.appendingPathComponent("\(name).sqlite"))
            let token = AccessTokens.newToken()
            tokens.add(
                token,
                granting: .init(hub: "bench", replica: try SyncEngine.replicaID(in: coordinator), access: .readWrite))
            tokenOf[name] = token
            coordinators[name] = coordinator
        }
        let hubCoordinator = try PersistentStoreCoordinator(model: SyncModel.hubModel(), storeTypes: [.sqlite])
        _ = try await hubCoordinator.addStore(type: "SQLite", at: scratch.url.appendingPathComponent("hub.sqlite"))
        let hub = try StoreHub(coordinator: hubCoordinator, pushByteLimit: 8 << 20)
        var logger = Logger(label: "strata-bench.sync")
        logger.logLevel = .critical
        let (ports, announce) = AsyncStream.makeStream(of: Int?.self)
        let application = SyncServer.application(
            hubs: ["bench": hub], tokens: tokens, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { announce.yield($0) }, logger: logger)
        let serving = Task { try await application.runService(gracefulShutdownSignals: []) }
        defer { serving.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() ?? nil, let server = URL(string: "http://127.0.0.1:\(port)/") else {
            throw FloorError(description: "the sync server did not start")
        }
        func engine(_ name: String, watch: Duration = .seconds(1)) throws -> SyncEngine {
            var options = SyncEngine.Options()
            options.watchInterval = watch
            return try SyncEngine(
                coordinator: coordinators[name]!,
                hub: HTTPHub(server: server, hub: "bench", token: tokenOf[name]!), options: options)
        }
        var lines: [String] = []

        log("Pushing \(count) books from one replica")
        let seeder = try engine("seeder")
        try insertBooks(count, into: coordinators["seeder"]!)
        let pushStart = ContinuousClock.now
        try await seeder.syncNow()
        let pushSeconds = (ContinuousClock.now - pushStart).milliseconds / 1000
        lines.append(
            String(
                format: "first push of %d books (collect and push): %.1f s, %.0f objects/s", count, pushSeconds,
                Double(count) / pushSeconds))

        log("Initial sync of \(count) books into an empty SQLite replica (child process)")
        let replicaPath = scratch.url.appendingPathComponent("initial.sqlite").path
        for store in coordinators["initial"]!.stores { try coordinators["initial"]!.remove(store) }
        let initial = try child(["sync-probe", replicaPath, server.absoluteString, tokenOf["initial"]!])
        lines.append(
            String(
                format: "initial sync of %d books: %.1f s, peak RSS %.0f MiB (goal for 1 000 000: ≤ 60 s, ≤ 1 024 MiB)",
                count, initial.milliseconds / 1000, initial.peak / 1_048_576))

        let changes = min(count, 20_000)
        log("Steady state: \(changes) title changes applied by another replica")
        let seederContext = ManagedObjectContext(coordinator: coordinators["seeder"]!)
        try seederContext.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.fetchLimit = changes
            for book in try seederContext.fetch(request) {
                try book.setValue(.string("Changed \(book.objectID.uriString)"), forKey: "title")
            }
            try seederContext.save()
            seederContext.reset()
        }
        try await seeder.syncNow()
        let steady = try child(["sync-probe", replicaPath, server.absoluteString, tokenOf["initial"]!])
        lines.append(
            String(
                format: "steady state: %d changes applied in %.2f s, %.0f changes/s (goal ≥ 20 000)", changes,
                steady.milliseconds / 1000, Double(changes) / (steady.milliseconds / 1000)))

        log("Propagation replica → hub → replica, 200 times")
        let writer = try engine("writer")
        let watcher = try engine("watcher", watch: .seconds(60))
        try await writer.syncNow()
        try await watcher.syncNow()
        await watcher.start()
        var events = watcher.events.makeAsyncIterator()
        let writerContext = ManagedObjectContext(coordinator: coordinators["writer"]!)
        var latencies: [Double] = []
        for round in 0..<200 {
            let start = ContinuousClock.now
            try writerContext.performAndWait {
                let book = try writerContext.insertNewObject(forEntityName: "Book")
                try book.setValue(.string("Round \(round)"), forKey: "title")
                try writerContext.save()
            }
            try await writer.syncNow()
            while let event = await events.next() {
                if case .pulled = event { break }
            }
            latencies.append((ContinuousClock.now - start).milliseconds)
        }
        await watcher.stop()
        latencies.sort()
        lines.append(
            String(
                format: "propagation on loopback: p50 %.1f ms, p99 %.1f ms (goal p99 ≤ 250 ms)",
                latencies[latencies.count / 2], latencies[latencies.count * 99 / 100]))

        log("A local save of 1 000 books with sync on and with history alone")
        let plainModel = ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32, default: 0)
            }
        }
        let plain = try open(scratch.url.appendingPathComponent("plain.sqlite"), model: plainModel)
        var alone: [Double] = []
        var withSync: [Double] = []
        var collect: [Double] = []
        await writer.start()
        for _ in 0..<9 {
            for (coordinator, samples) in [(plain, 0), (coordinators["writer"]!, 1)] {
                let start = ContinuousClock.now
                try insertBooks(1_000, into: coordinator, batch: 1_000)
                let milliseconds = (ContinuousClock.now - start).milliseconds
                if samples == 0 { alone.append(milliseconds) } else { withSync.append(milliseconds) }
            }
        }
        await writer.stop()
        for _ in 0..<9 {
            try insertBooks(1_000, into: coordinators["writer"]!, batch: 1_000)
            let start = ContinuousClock.now
            try await writer.syncNow()
            collect.append((ContinuousClock.now - start).milliseconds)
        }
        let (a, w, c) = (median(alone), median(withSync), median(collect))
        lines.append(
            String(
                format: "local save of 1 000 books: %.1f ms with history alone, %.1f ms with an engine watching "
                    + "(× %.2f, goal ≤ 1.2); a sync collecting and pushing them: %.1f ms", a, w, w / a, c))
        return lines
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// Runs `strata-bench` with `arguments` and reads the "milliseconds peak" line it prints.
    static func child(_ arguments: [String]) throws -> (milliseconds: Double, peak: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let figures = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard process.terminationStatus == 0, figures.count == 2 else {
            throw FloorError(description: "the sync probe failed (status \(process.terminationStatus))")
        }
        return (figures[0], figures[1])
    }

    /// The child's side: opens the replica at `path` and syncs it once through `server`;
    /// prints the sync's milliseconds and the process's peak resident bytes.
    static func probe(path: String, server: String, token: String) async throws {
        guard let url = URL(string: server) else { throw FloorError(description: "'\(server)' is not a URL") }
        let coordinator = try open(URL(fileURLWithPath: path))
        var options = SyncEngine.Options()
        options.pullByteLimit = 2 << 20
        let engine = try SyncEngine(
            coordinator: coordinator, hub: HTTPHub(server: url, hub: "bench", token: token), options: options)
        let start = ContinuousClock.now
        try await engine.syncNow()
        let milliseconds = (ContinuousClock.now - start).milliseconds
        print("\(milliseconds) \(try MemoryProbe.peakResidentBytes())")
    }
}
