import Foundation
import Strata
import StrataConformance
import StrataPostgres
import StrataPostgresTesting
import StrataSync
import StrataSyncServer
import StrataTestSupport
import Testing

/// Replicas of three store types (SQLite, XML, LMDB), each in a process of its own
/// (`SyncWorker`), make random edits — tags under a dozen unique labels among them, which
/// replicas apart make twice, and books put at random places among an author's ordered books —
/// and sync at random moments through two real `strata sync-server`s in front of one hub kept
/// by the PostgreSQL test server, each replica through either, while the test kills replicas
/// with SIGKILL and restarts them, and kills a server and keeps it down for a while (a
/// partition). At the end:
///
/// - every replica's store shows the same objects (each author's books in one order), and every
///   replica's merged state is the hub's;
/// - `strata dump --canonical` prints the same for every replica's store and for the hub's;
/// - an oracle applying every operation of the hub's log twice, in another random order,
///   reaches the hub's state, and the log holds no operation twice;
/// - the last string each replica saved to each key of each object, unless the replica itself
///   deleted the object afterwards (or tried to, when a kill came before the step reached its
///   log), is in the hub's log, and is still the object's value, or
///   the object is deleted, or a later write holds;
/// - every object a replica deleted is deleted.
///
/// 3 replicas × 2 000 saves in `make test`; 5 replicas × 1 000 000 with `STRATA_SOAK` set.
@Suite(.serialized) struct SyncConvergenceTests {
    /// A replica process's log line: an acknowledged save.
    struct Step: Codable {
        var writes: [[String]]
        var deleted: [String]
    }

    /// What a replica's `finish` wrote.
    struct Final: Codable {
        var replica: ReplicaID
        var resolved: [GlobalID: ResolvedObject]
        var dump: [String]
    }

    /// A child process whose output goes to a file.
    final class Child {
        let process = Process()
        let output: URL

        init(_ executable: String, _ arguments: [String], output: URL) throws {
            self.output = output
            process.executableURL = BuiltProducts.executable(executable)
            process.arguments = arguments
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            try handle.seekToEnd()
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        }

        private var ended: ProcessTermination?

        /// How the process ended; `nil` while it runs.
        var termination: ProcessTermination? {
            if ended == nil { ended = process.terminationIfEnded() }
            return ended
        }

        func kill() {
            guard termination == nil else { return }
            Foundation.kill(process.processIdentifier, SIGKILL)
            ended = process.waitForTermination()
        }

        /// Waits for the process to end without holding one of the few threads other tests'
        /// tasks run on; its exit status.
        @discardableResult
        func exit() async -> Int32 {
            if let termination { return termination.status }
            let termination = await process.termination()
            ended = termination
            return termination.status
        }

        var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
    }

    static var size: (replicas: Int, steps: Int) {
        let soak = ProcessInfo.processInfo.environment["STRATA_SOAK"] ?? ""
        return soak.isEmpty || soak == "0" ? (3, 2_000) : (5, 1_000_000)
    }

    /// The rules of the workers' model: tags are unique by label.
    static let rules = MergeRules(uniquenessConstraints: ["Tag": [.init(entity: "Tag", keys: ["label"])]])

    /// The replicas' store types, taken in turn.
    static let storeTypes = [("SQLite", "sqlite"), ("XML", "xml"), ("LMDB", "lmdb")]

    @Test func replicasInProcessesKilledAtRandomConvergeThroughServersTakenDownAtRandom() async throws {
        let (replicaCount, steps) = Self.size
        let directory = try TemporaryDirectory()
        var random = SeededGenerator(seed: 20_261_207)
        let tokensURL = directory.file("tokens.json")
        var tokens = AccessTokens()
        var replicas: [(type: String, store: String, token: String, log: URL)] = []
        for index in 0..<replicaCount {
            let (type, suffix) = Self.storeTypes[index % Self.storeTypes.count]
            let store = directory.file("replica\(index).\(suffix)").path
            let id = try Child("SyncWorker", ["id", store, type], output: directory.file("id\(index).txt"))
            #expect(await id.exit() == 0, "\(id.text)")
            let replica = try #require(UUID(uuidString: id.text.trimmingCharacters(in: .whitespacesAndNewlines)))
            let token = AccessTokens.newToken()
            tokens.add(token, granting: .init(hub: "main", replica: ReplicaID(replica), access: .readWrite))
            replicas.append((type, store, token, directory.file("replica\(index).log")))
        }
        try tokens.write(to: tokensURL)

        let hubURL = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("hub"))
        let hubPath = hubURL.absoluteString
        var ports = [0, 0]
        var serverStarts = 0
        func startServer(_ index: Int) async throws -> Child {
            for attempt in 0..<50 {
                serverStarts += 1
                let server = try Child(
                    "strata",
                    ["sync-server", "--hub", hubPath, "--port", "\(ports[index])", "--tokens", tokensURL.path],
                    output: directory.file("server\(serverStarts).txt"))
                for _ in 0..<200 {
                    if let line = server.text.split(separator: "\n").first(where: { $0.hasPrefix("Serving") }),
                        let number = Int(line.split(separator: ":").last ?? "")
                    {
                        ports[index] = number
                        return server
                    }
                    if server.termination != nil { break }
                    try await Task.sleep(for: .milliseconds(25))
                }
                server.kill()
                try await Task.sleep(for: .milliseconds(100 * (attempt + 1)))
            }
            throw CancellationError()
        }
        var servers = [try await startServer(0), try await startServer(1)]
        func url(_ server: Int) -> String { "http://127.0.0.1:\(ports[server])/" }

        func startReplica(_ index: Int) throws -> Child {
            let replica = replicas[index]
            return try Child(
                "SyncWorker",
                [
                    "run", replica.store, replica.type, url(Int.random(in: 0...1, using: &random)), replica.token,
                    "\(index + 1)", "\(steps)", replica.log.path,
                ], output: directory.file("replica\(index).txt"))
        }
        var running: [Int: Child] = [:]
        // A failed expectation must not leave a server or a replica running.
        defer {
            for server in servers { server.kill() }
            for child in running.values { child.kill() }
        }
        for index in replicas.indices { running[index] = try startReplica(index) }
        var kills = 0
        var partitions = 0
        while !running.isEmpty {
            try await Task.sleep(for: .milliseconds(Int.random(in: 200...800, using: &random)))
            for (index, child) in running {
                guard let termination = child.termination else { continue }
                #expect(termination.status == 0, "replica \(index): \(child.text)")
                running[index] = nil
            }
            let roll = Double.random(in: 0..<1, using: &random)
            if roll < 0.5, let index = running.keys.sorted().randomElement(using: &random) {
                running[index]?.kill()
                running[index] = try startReplica(index)
                kills += 1
            } else if roll < 0.65 {
                let index = Int.random(in: 0...1, using: &random)
                servers[index].kill()
                try await Task.sleep(for: .milliseconds(Int.random(in: 300...1_500, using: &random)))
                servers[index] = try await startServer(index)
                partitions += 1
            }
        }

        // Each replica pushes what it has left, then each pulls what the others pushed, through
        // the other server.
        var finals: [Final] = []
        for round in 0..<2 {
            for (index, replica) in replicas.enumerated() {
                let out = directory.file("final\(index).json")
                let finish = try Child(
                    "SyncWorker",
                    ["finish", replica.store, replica.type, url((index + round) % 2), replica.token, out.path],
                    output: directory.file("finish\(index)-\(round).txt"))
                let status = await finish.exit()
                try #require(status == 0, "replica \(index): \(finish.text)")
                if round == 1 { finals.append(try JSONDecoder().decode(Final.self, from: Data(contentsOf: out))) }
            }
        }
        for server in servers {
            server.process.terminate()
            await server.exit()
        }

        let coordinator = try PersistentStoreCoordinator(model: SyncModel.hubModel(), storeTypes: [.postgres])
        _ = try await coordinator.addStore(type: StoreType.postgres.name, at: hubURL)
        let hub = try StoreHub(coordinator: coordinator, rules: Self.rules)
        let hubState = await hub.resolvedObjects()
        var log: [SyncOperation] = []
        var cursor: Int64 = 0
        while true {
            let batch = try await hub.pull(after: cursor, for: .random(), byteLimit: 1 << 24)
            log += batch.entries.flatMap(\.push.operations)
            cursor = batch.cursor
            if batch.isComplete { break }
        }
        #expect(kills > 0 && partitions > 0, "kills \(kills), partitions \(partitions)")

        for final in finals {
            #expect(final.resolved == hubState, "replica \(final.replica)")
            #expect(final.dump == finals[0].dump, "replica \(final.replica)")
        }
        #expect(finals[0].dump.count == hubState.count)
        try await Self.checkCanonicalDumps(of: replicas.map(\.store), equal: hubPath, in: directory)

        // The oracle: every operation, twice, in another order.
        #expect(Set(log).count == log.count, "the log holds an operation twice")
        var oracle = MergeState(rules: Self.rules)
        for operation in (log + log).shuffled(using: &random) { try oracle.apply(operation) }
        #expect(oracle.resolvedObjects() == hubState)
        #expect(try Self.clashes(in: log) > 0, "no two replicas made a tag of one label while apart")

        try Self.checkAcknowledgedSaves(of: replicas.map(\.log), against: log, oracle)
    }

    /// Checks that `strata dump --canonical` prints the same for each of `stores` as for the hub
    /// at `hub`, given the replicas' model.
    static func checkCanonicalDumps(of stores: [String], equal hub: String, in directory: TemporaryDirectory)
        async throws
    {
        let modelURL = directory.file("model.json")
        let model = try Child("SyncWorker", ["model", modelURL.path], output: directory.file("model.txt"))
        try #require(await model.exit() == 0, "\(model.text)")
        func canonicalDump(_ store: String, _ name: String) async throws -> String {
            let dump = try Child(
                "strata", ["dump", "--canonical", store, "--model", modelURL.path],
                output: directory.file("dump-\(name).json"))
            try #require(await dump.exit() == 0, "\(name): \(dump.text)")
            return dump.text
        }
        let hubDump = try await canonicalDump(hub, "hub")
        #expect(hubDump.contains("\"Book/0\"") && hubDump.contains("\"Tag/0\""), "\(hubDump.prefix(2_000))")
        #expect(!hubDump.contains("StrataSync"))
        for (index, store) in stores.enumerated() {
            #expect(try await canonicalDump(store, "replica\(index)") == hubDump, "replica \(index)")
        }
    }

    /// How many tags showed as one with another at some point of `log`, applied in order.
    static func clashes(in log: [SyncOperation]) throws -> Int {
        var state = MergeState(rules: rules)
        var clashed = Set<GlobalID>()
        for operation in log {
            try state.apply(operation)
            if operation.entity == "Tag", case .set(key: "label", _) = operation.change {
                let group = state.uniquenessGroup(of: operation.object)
                if group.count > 1 { clashed.formUnion(group) }
            }
        }
        return clashed.count
    }

    /// Every replica's last string write to each key of each object it did not delete itself
    /// reached the hub and holds, or a later write or a deletion does — on the object its
    /// object shows as, for tags of one label; every deletion holds.
    static func checkAcknowledgedSaves(of logs: [URL], against log: [SyncOperation], _ state: MergeState) throws {
        let hubState = state.resolvedObjects()
        var serials: [GlobalID: String] = [:]
        var writes: [String: [(SyncOperation, String, String)]] = [:]
        var latestWrites: [GlobalID: [String: SyncTimestamp]] = [:]
        for operation in log {
            if case .set(let key, _) = operation.change,
                latestWrites[operation.object]?[key].map({ $0 < operation.stamp }) ?? true
            {
                latestWrites[operation.object, default: [:]][key] = operation.stamp
            }
            guard case .set(let key, .attribute(.string(let value))) = operation.change else { continue }
            if key == "serial" { serials[operation.object] = value }
        }
        for operation in log {
            guard case .set(let key, .attribute(.string(let value))) = operation.change, key != "serial",
                let serial = serials[operation.object]
            else { continue }
            writes["\(serial)/\(key)", default: []].append((operation, key, value))
        }
        let alive = Set(hubState.compactMap { id, _ in serials[id] })
        for url in logs {
            var last: [String: String] = [:]
            var deleted: Set<String> = []
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                let step = try JSONDecoder().decode(Step.self, from: Data(line.utf8))
                for write in step.writes where write.count == 3 { last["\(write[0])/\(write[1])"] = write[2] }
                deleted.formUnion(step.deleted)
            }
            for serial in deleted where alive.contains(serial) {
                let objects = Set(serials.filter { $0.value == serial }.keys)
                let history = log.filter { objects.contains($0.object) }.map { "\($0.stamp) \($0.change)" }
                Issue.record("\(serial) was deleted, yet is alive; its operations: \(history)")
            }
            // Deletions a kill may have saved without their line in the log.
            var attempted = deleted
            for line in try String(contentsOfFile: url.path + ".attempts", encoding: .utf8).split(separator: "\n") {
                attempted.formUnion(try JSONDecoder().decode(Step.self, from: Data(line.utf8)).deleted)
            }
            for (slot, value) in last {
                let serial = String(slot.split(separator: "/")[0])
                guard !attempted.contains(serial) else { continue }
                let candidates = writes[slot] ?? []
                guard let mine = candidates.first(where: { $0.2 == value }) else {
                    Issue.record("The save of '\(value)' to \(slot) never reached the hub.")
                    continue
                }
                let group = state.uniquenessGroup(of: mine.0.object)
                guard let shown = group.first, let resolved = hubState[shown] else { continue }
                let holds = resolved.values[mine.1] == .attribute(.string(value))
                let superseded = group.contains { member in
                    latestWrites[member]?[mine.1].map { $0 > mine.0.stamp } ?? false
                }
                #expect(holds || superseded, "the save of '\(value)' to \(slot) was lost")
            }
        }
    }
}
