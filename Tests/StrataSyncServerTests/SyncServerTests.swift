import Foundation
import Hummingbird
import Logging
import Strata
import StrataSQLite
import StrataSync
import StrataSyncServer
import StrataTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A sync server on loopback in front of a hub in a SQLite store: replicas holding tokens push
/// and pull through it as through the hub itself, a wait for the log returns when another
/// replica pushes, and every request a token does not allow, or that is malformed, forged, too
/// large or replayed, is a typed 4xx that changes nothing.
@Suite struct SyncServerTests {
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("text", .string)
            }
        }
        let replica = try! SyncModel.replicaModel(for: model)
        try? replica.freeze()
        return replica
    }()

    /// A hub, and the tokens its server takes.
    final class Fixture {
        let directory: TemporaryDirectory
        let hub: StoreHub
        let tokens: AccessTokens

        /// `grants` by token, besides a read-only token (`"reader"`) and one for another hub
        /// (`"stranger"`).
        init(_ grants: [String: AccessTokens.Grant] = [:], modelSupport: ModelSupport? = nil) throws {
            directory = try TemporaryDirectory()
            let coordinator = try PersistentStoreCoordinator(model: SyncModel.hubModel(), storeTypes: [.sqlite])
            try coordinator.addStore(type: "SQLite", at: directory.file("hub.sqlite"))
            hub = try StoreHub(coordinator: coordinator, pushByteLimit: 64 << 10, modelSupport: modelSupport)
            var tokens = AccessTokens()
            for (token, grant) in grants { tokens.add(token, granting: grant) }
            tokens.add("reader", granting: .init(hub: "main", replica: .random(), access: .read))
            tokens.add("stranger", granting: .init(hub: "other", replica: .random(), access: .readWrite))
            self.tokens = tokens
        }

        /// Another hub on `fixture`'s store, taking the same tokens.
        init(sharing fixture: Fixture, hub: StoreHub) {
            directory = fixture.directory
            self.hub = hub
            tokens = fixture.tokens
        }
    }

    /// Runs `body` with a server for `fixture`'s hub on a free loopback port.
    static func withServer(_ fixture: Fixture, _ body: (URL) async throws -> Void) async throws {
        let (ports, announce) = AsyncStream.makeStream(of: Int?.self)
        let application = SyncServer.application(
            hubs: ["main": fixture.hub], tokens: fixture.tokens,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)), maximumPushBytes: 256 << 10,
            onServerRunning: { announce.yield($0) }, logger: Logger(label: "strata.sync.test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.runService(gracefulShutdownSignals: []) }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next() ?? nil)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)/")))
            group.cancelAll()
        }
    }

    /// A SQLite store at `url` made for syncing, and its replica ID.
    static func replicaStore(at url: URL) throws -> (PersistentStoreCoordinator, ReplicaID) {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite])
        var options = StoreOptions()
        options.tracksPersistentHistory = true
        try coordinator.addStore(type: "SQLite", at: url, options: options)
        return (coordinator, try SyncEngine.replicaID(in: coordinator))
    }

    /// A push inserting one note, by `replica`.
    static func insertion(by replica: ReplicaID) -> SyncPush {
        SyncPush(
            replica: replica,
            operations: [
                SyncOperation(
                    object: .random(), entity: "Note",
                    stamp: SyncTimestamp(milliseconds: 1, counter: 0, replica: replica), change: .insert)
            ])
    }

    static func notes(in coordinator: PersistentStoreCoordinator) throws -> [String] {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Note")).compactMap {
                if case .string(let text) = try $0.value(forKey: "text") { text } else { nil }
            }.sorted()
        }
    }

    static func write(_ text: String, in coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Note").setValue(.string(text), forKey: "text")
            try context.save()
        }
    }

    @Test func replicasSyncThroughTheServerAndAWaitReturnsWhenAnotherPushes() async throws {
        let directory = try TemporaryDirectory()
        let (first, firstID) = try Self.replicaStore(at: directory.file("a.sqlite"))
        let (second, secondID) = try Self.replicaStore(at: directory.file("b.sqlite"))
        let fixture = try Fixture([
            "first": .init(hub: "main", replica: firstID, access: .readWrite),
            "second": .init(hub: "main", replica: secondID, access: .readWrite),
        ])
        try await Self.withServer(fixture) { server in
            let firstHub = HTTPHub(server: server, hub: "main", token: "first", longPollWait: .seconds(5))
            let a = try SyncEngine(coordinator: first, hub: firstHub)
            let b = try SyncEngine(
                coordinator: second, hub: HTTPHub(server: server, hub: "main", token: "second"))
            #expect(a.replica == firstID)

            try Self.write("from a", in: first)
            try await a.syncNow()
            try await b.syncNow()
            #expect(try Self.notes(in: second) == ["from a"])

            // A wait for the log to move returns once the second replica pushes.
            var heads = await firstHub.heads().makeAsyncIterator()
            #expect(await heads.next() == 1)
            try Self.write("from b", in: second)
            try await b.syncNow()
            #expect(await heads.next() == 2)
            try await a.syncNow()
            #expect(try Self.notes(in: first) == ["from a", "from b"])
            #expect(await a.resolvedObjects() == fixture.hub.resolvedObjects())
        }
    }

    @Test func aReplicaWithAReadOnlyTokenPullsWhileItsPushesAreRefused() async throws {
        let directory = try TemporaryDirectory()
        let (writerStore, writerID) = try Self.replicaStore(at: directory.file("writer.sqlite"))
        let (readerStore, readerID) = try Self.replicaStore(at: directory.file("reader.sqlite"))
        let fixture = try Fixture([
            "writer": .init(hub: "main", replica: writerID, access: .readWrite),
            "read-only": .init(hub: "main", replica: readerID, access: .read),
        ])
        try await Self.withServer(fixture) { server in
            let writer = try SyncEngine(
                coordinator: writerStore, hub: HTTPHub(server: server, hub: "main", token: "writer"))
            let reader = try SyncEngine(
                coordinator: readerStore, hub: HTTPHub(server: server, hub: "main", token: "read-only"))
            try Self.write("from the writer", in: writerStore)
            try await writer.syncNow()
            try Self.write("kept locally", in: readerStore)
            let error = await #expect(throws: SyncError.self) { try await reader.syncNow() }
            #expect(error?.code == .forbidden)
            #expect(try Self.notes(in: readerStore) == ["from the writer", "kept locally"])
            #expect(try await reader.status().pendingPushes == 1)
            #expect(await fixture.hub.lastSequence == 1)
        }
    }

    @Test func requestsATokenDoesNotAllowOrThatAreMalformedAreTyped4xxAndChangeNothing() async throws {
        let writer = ReplicaID.random()
        let fixture = try Fixture(["writer": .init(hub: "main", replica: writer, access: .readWrite)])
        let stamp = SyncTimestamp(milliseconds: 1_000, counter: 0, replica: writer)
        let book = GlobalID.random()
        let accepted = SyncPush(
            replica: writer, operations: [SyncOperation(object: book, entity: "Note", stamp: stamp, change: .insert)])
        _ = try await fixture.hub.push(accepted)
        try await Self.withServer(fixture) { server in
            func push(_ body: Data, token: String?, hub: String = "main") async throws -> (Int, HubWire.Refusal?) {
                var request = URLRequest(url: server.appendingPathComponent(HubWire.path(of: hub, "push")))
                request.httpMethod = "POST"
                request.httpBody = body
                if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
                let (data, response) = try await URLSession.shared.data(for: request)
                return (
                    (response as? HTTPURLResponse)?.statusCode ?? 0,
                    try? JSONDecoder().decode(HubWire.Refusal.self, from: data)
                )
            }
            let encoder = JSONEncoder()
            let fresh = SyncPush(
                replica: writer,
                operations: [SyncOperation(object: .random(), entity: "Note", stamp: stamp, change: .insert)])
            var forged = fresh
            forged.replica = .random()
            var replayed = fresh
            replayed.id = accepted.id
            let mismatch = SyncPush(
                replica: writer,
                operations: [SyncOperation(object: book, entity: "Other", stamp: stamp, change: .insert)])
            let huge = SyncPush(
                replica: writer,
                operations: (0..<4_000).map { _ in
                    SyncOperation(object: .random(), entity: "Note", stamp: stamp, change: .insert)
                })
            // A position that is no base-62 fraction: "Vq" written as "V0".
            let placing = SyncPush(
                replica: writer,
                operations: [
                    SyncOperation(
                        object: .random(), entity: "Note", stamp: stamp,
                        change: .place(key: "notes", member: .random(), position: try #require(OrderPosition("Vq"))))
                ])
            let misplaced = Data(
                String(decoding: try encoder.encode(placing), as: UTF8.self).replacingOccurrences(
                    of: "\"Vq\"", with: "\"V0\""
                ).utf8)
            let cases: [(Data, String?, String, Int, String)] = [
                (try encoder.encode(fresh), nil, "main", 401, "unauthorized"),
                (try encoder.encode(fresh), "not a token", "main", 401, "unauthorized"),
                (try encoder.encode(fresh), "stranger", "main", 403, "forbidden"),
                (try encoder.encode(fresh), "reader", "main", 403, "forbidden"),
                (try encoder.encode(forged), "writer", "main", 403, "forgedReplica"),
                (Data("{\"id\": 3}".utf8), "writer", "main", 400, "malformedPush"),
                (misplaced, "writer", "main", 400, "malformedPush"),
                (try encoder.encode(replayed), "writer", "main", 409, "pushReplayed"),
                (try encoder.encode(mismatch), "writer", "main", 409, "entityMismatch"),
                (try encoder.encode(huge), "writer", "main", 413, "pushTooLarge"),
                (try encoder.encode(SyncPush(replica: writer, operations: [])), "writer", "main", 400, "malformedPush"),
            ]
            for (body, token, hub, status, code) in cases {
                let (answered, refusal) = try await push(body, token: token, hub: hub)
                #expect(answered == status, "\(code)")
                #expect(refusal?.code == code)
            }
            #expect(await fixture.hub.lastSequence == 1)

            // Through the client, a refusal is the SyncError the server named.
            let reader = HTTPHub(server: server, hub: "main", token: "reader")
            let error = await #expect(throws: SyncError.self) { try await reader.push(fresh) }
            #expect(error?.code == .forbidden)
            let pulled = try await reader.pull(after: 0, for: .random(), byteLimit: 1 << 20)
            #expect(pulled.entries.map(\.push) == [accepted])
            let stranger = HTTPHub(server: server, hub: "other", token: "stranger")
            let unknown = await #expect(throws: SyncError.self) {
                try await stranger.pull(after: 0, for: .random(), byteLimit: 1)
            }
            #expect(unknown?.code == .unknownHub)
        }
    }

    @Test func aReplicaOnAModelVersionTheHubNoLongerServesIsRefusedWithBothNamed() async throws {
        let newer = ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("text", .string)
                AttributeDescription("title", .string)
            }
        }
        let versions = [
            try SyncModelVersion(of: Self.model, named: "Notes 1"), try SyncModelVersion(of: newer, named: "Notes 2"),
        ]
        let replica = ReplicaID.random()
        let support = try #require(ModelSupport(versions: versions, oldestSupported: "Notes 2"))
        let fixture = try Fixture(
            ["writer": .init(hub: "main", replica: replica, access: .readWrite)], modelSupport: support)
        try await Self.withServer(fixture) { server in
            let hub = HTTPHub(server: server, hub: "main", token: "writer")
            let error = await #expect(throws: SyncError.self) {
                try await hub.admit(replica, model: SyncModelVersion(digest: versions[0].digest, name: nil))
            }
            #expect(error?.code == .modelTooOld)
            #expect(error?.message.contains("HTTP 409") == true)
            #expect(error?.message.contains("'Notes 1'") == true && error?.message.contains("'Notes 2'") == true)
            // Refused, or never asked (a replica made before hubs asked), it neither pushes nor pulls.
            let push = Self.insertion(by: replica)
            let refusedPush = await #expect(throws: SyncError.self) { try await hub.push(push) }
            #expect(refusedPush?.code == .modelTooOld)
            let refusedPull = await #expect(throws: SyncError.self) {
                try await hub.pull(after: 0, for: replica, byteLimit: 1 << 20)
            }
            #expect(refusedPull?.code == .modelTooOld)
            try await hub.admit(replica, model: versions[1])
            #expect(try await hub.push(push).sequence == 1)
            // A 404 that names its refusal (a hub the server does not serve) is no admission.
            let elsewhere = HTTPHub(server: server, hub: "other", token: "stranger")
            let unknown = await #expect(throws: SyncError.self) {
                try await elsewhere.admit(replica, model: versions[1])
            }
            #expect(unknown?.code == .unknownHub)

            var request = URLRequest(url: server.appendingPathComponent(HubWire.path(of: "main", "admit")))
            request.httpMethod = "POST"
            request.setValue("Bearer writer", forHTTPHeaderField: "Authorization")
            request.httpBody = Data("{\"name\": 1}".utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 400)
            #expect(try JSONDecoder().decode(HubWire.Refusal.self, from: data).code == "malformedPush")
        }
    }

    @Test func aServerThatDidNotAdmitAReplicaAdmitsTheModelItsRequestsName() async throws {
        let older = ManagedObjectModel { EntityDescription("Note") { AttributeDescription("body", .string) } }
        let versions = [
            try SyncModelVersion(of: Self.model, named: "Notes 2"), try SyncModelVersion(of: older, named: "Notes 1"),
        ]
        let replica = ReplicaID.random()
        let support = try #require(ModelSupport(versions: versions.reversed(), oldestSupported: "Notes 2"))
        let fixture = try Fixture(
            ["writer": .init(hub: "main", replica: replica, access: .readWrite)], modelSupport: support)
        // A second server on the same store, behind the same address as far as the replica knows.
        let coordinator = try PersistentStoreCoordinator(model: SyncModel.hubModel(), storeTypes: [.sqlite])
        _ = try await coordinator.addStore(type: "SQLite", at: fixture.directory.file("hub.sqlite"))
        let other = Fixture(
            sharing: fixture,
            hub: try StoreHub(coordinator: coordinator, pushByteLimit: 64 << 10, modelSupport: support))
        let push = Self.insertion(by: replica)
        try await Self.withServer(fixture) { first in
            let hub = HTTPHub(server: first, hub: "main", token: "writer")
            try await hub.admit(replica, model: versions[0])
            #expect(try await hub.push(push).sequence == 1)
            try await Self.withServer(other) { second in
                func send(naming model: String?) async throws -> (Int?, Data) {
                    var request = URLRequest(
                        url: second.appendingPathComponent(HubWire.path(of: "main", "pull")))
                    request.setValue("Bearer writer", forHTTPHeaderField: "Authorization")
                    if let model { request.setValue(model, forHTTPHeaderField: HubWire.modelHeader) }
                    let (data, response) = try await URLSession.shared.data(for: request)
                    return ((response as? HTTPURLResponse)?.statusCode, data)
                }
                let (unnamed, refusal) = try await send(naming: nil)
                #expect(unnamed == 409)
                #expect(try JSONDecoder().decode(HubWire.Refusal.self, from: refusal).code == "modelTooOld")
                let (stale, _) = try await send(naming: versions[1].digest)
                #expect(stale == 409)
                let (named, _) = try await send(naming: versions[0].digest)
                #expect(named == 200)
            }
        }
    }

    @Test func anAdmittedHubNamesItsModelInEveryRequest() async throws {
        let (ports, announce) = AsyncStream.makeStream(of: Int?.self)
        let (named, record) = AsyncStream.makeStream(of: String?.self)
        let router = Router()
        router.post("v1/hubs/main/admit") { _, _ in #"{"model": {"digest": "d1"}}"# }
        router.get("v1/hubs/main/pull") { request, _ in
            let name = HubWire.modelHeader.lowercased()
            record.yield(request.headers.first { $0.name.canonicalName == name }?.value)
            return #"{"entries": [], "cursor": 0, "isComplete": true}"#
        }
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { announce.yield($0.localAddress?.port) }, logger: Logger(label: "strata.sync.test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.runService(gracefulShutdownSignals: []) }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next() ?? nil)
            let hub = HTTPHub(server: try #require(URL(string: "http://127.0.0.1:\(port)/")), hub: "main", token: "t")
            var headers = named.makeAsyncIterator()
            _ = try await hub.pull(after: 0, for: .random(), byteLimit: 1)
            #expect(await headers.next() == .some(nil))
            try await hub.admit(.random(), model: SyncModelVersion(digest: "d1", name: nil))
            _ = try await hub.pull(after: 0, for: .random(), byteLimit: 1)
            #expect(await headers.next() == "d1")
            group.cancelAll()
        }
    }

    @Test func aServerWithoutTheAdmitEndpointServesEveryVersion() async throws {
        let (ports, announce) = AsyncStream.makeStream(of: Int?.self)
        let application = Application(
            router: Router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { announce.yield($0.localAddress?.port) }, logger: Logger(label: "strata.sync.test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.runService(gracefulShutdownSignals: []) }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next() ?? nil)
            let server = try #require(URL(string: "http://127.0.0.1:\(port)/"))
            let hub = HTTPHub(server: server, hub: "main", token: "any")
            try await hub.admit(.random(), model: SyncModelVersion(digest: "old", name: nil))
            group.cancelAll()
        }
    }

    @Test func newTokensDifferAndNeverBeginAsACommandLineOption() {
        let tokens = (0..<2_000).map { _ in AccessTokens.newToken() }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { $0.hasPrefix("strata_") && $0.count == 7 + 43 }, "\(tokens.prefix(3))")
    }

    @Test func aTokensFileKeepsDigestsOnlyAndReadsBack() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("tokens.json")
        let token = AccessTokens.newToken()
        let grant = AccessTokens.Grant(hub: "main", replica: .random(), access: .read)
        var tokens = AccessTokens()
        tokens.add(token, granting: grant)
        try tokens.write(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains(token))
        #expect(text.contains(AccessTokens.digest(of: token)))
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let read = try AccessTokens(contentsOf: url)
        #expect(read.grant(forBearer: token) == grant)
        #expect(read.grant(forBearer: token + "x") == nil)

        try Data(
            #"{"tokens": [{"sha256": "abc", "hub": "main", "replica": "\#(grant.replica)", "access": "read"}]}"#.utf8
        )
        .write(to: url)
        let error = #expect(throws: SyncServerError.self) { try AccessTokens(contentsOf: url) }
        #expect(error?.message.contains("Token 1 of '\(url.path)'") == true)
    }
}
