import Foundation
import Strata
import StrataBinary
import StrataLMDB
import StrataSQLite
import StrataSync
import StrataTestSupport
import StrataXML
import Testing

/// Replicas in a SQLite and an XML store kept in step by their engines through a hub in a SQLite
/// store: changes saved to one reach the other, the merge rules settle concurrent edits, and a
/// replica stopped between any two steps — a push lost before or after the hub took it, a pull
/// cut off half-way — resumes from its store, so that every push applies once and no pulled
/// change is missed.
@Suite struct SyncEngineTests {
    /// The authors and books of ``ReplicaObjectsTests``, with the entities sync keeps its state in.
    static let model: ManagedObjectModel = {
        let model = try! SyncModel.replicaModel(for: ReplicaObjectsTests.model)
        try? model.freeze()
        return model
    }()

    /// A hub that passes calls on to another, and can be made to fail the next push before or
    /// after passing it on (a reply lost), or pulls after some batches.
    actor FlakyHub: SyncHub {
        enum Failure { case beforePush, afterPush }
        let hub: StoreHub
        var nextPushFails: Failure?
        var pullsBeforeFailure: Int?
        /// Run before the next pull: an application's save landing while a sync is under way.
        var beforeNextPull: (@Sendable () throws -> Void)?
        private(set) var pushesSent = 0
        private(set) var largestPush = 0

        init(_ hub: StoreHub) { self.hub = hub }

        func failNextPush(_ failure: Failure) { nextPushFails = failure }
        func failPulls(after batches: Int) { pullsBeforeFailure = batches }
        func runBeforeNextPull(_ body: @escaping @Sendable () throws -> Void) { beforeNextPull = body }

        func push(_ push: SyncPush) async throws -> PushReceipt {
            pushesSent += 1
            largestPush = max(largestPush, try JSONEncoder().encode(push.operations).count)
            defer { nextPushFails = nil }
            if nextPushFails == .beforePush { throw CancellationError() }
            let receipt = try await hub.push(push)
            if nextPushFails == .afterPush { throw CancellationError() }
            return receipt
        }

        func pull(after cursor: Int64, for replica: ReplicaID, byteLimit: Int) async throws -> PullBatch {
            if let body = beforeNextPull {
                beforeNextPull = nil
                try body()
            }
            if let left = pullsBeforeFailure {
                guard left > 0 else {
                    pullsBeforeFailure = nil
                    throw CancellationError()
                }
                pullsBeforeFailure = left - 1
            }
            return try await hub.pull(after: cursor, for: replica, byteLimit: byteLimit)
        }

        func heads() async -> AsyncStream<Int64> { await hub.heads() }
        func admit(_ replica: ReplicaID, model: SyncModelVersion) async throws {
            try await hub.admit(replica, model: model)
        }
    }

    /// One replica: its store, the application's context on it, and its engine.
    final class Replica {
        let type: StoreType
        let url: URL
        let wall: TestWallClock
        let hub: any SyncHub
        let pullByteLimit: Int
        let model: ManagedObjectModel
        let resolvers: [String: SyncResolver]
        private(set) var context: ManagedObjectContext
        private(set) var engine: SyncEngine

        init(
            type: StoreType, at url: URL, hub: any SyncHub, start: Int64 = 1_000, pullByteLimit: Int = 4 << 20,
            model: ManagedObjectModel = SyncEngineTests.model, resolvers: [String: SyncResolver] = [:]
        ) throws {
            self.type = type
            self.url = url
            self.hub = hub
            self.pullByteLimit = pullByteLimit
            self.model = model
            self.resolvers = resolvers
            wall = TestWallClock(start)
            (context, engine) = try Self.open(type, url, hub, wall, pullByteLimit, model, resolvers)
        }

        /// Opens the store and the engine again, as a process started after a kill would.
        func reopen() throws {
            for store in context.coordinator.stores { try context.coordinator.remove(store) }
            (context, engine) = try Self.open(type, url, hub, wall, pullByteLimit, model, resolvers)
        }

        private static func open(
            _ type: StoreType, _ url: URL, _ hub: any SyncHub, _ wall: TestWallClock, _ pullByteLimit: Int,
            _ model: ManagedObjectModel, _ resolvers: [String: SyncResolver]
        ) throws -> (ManagedObjectContext, SyncEngine) {
            let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [type])
            var storeOptions = StoreOptions()
            storeOptions.tracksPersistentHistory = true
            try coordinator.addStore(type: type.name, at: url, options: storeOptions)
            var options = SyncEngine.Options()
            options.wallClock = { wall.read() }
            options.pullByteLimit = pullByteLimit
            options.resolvers = resolvers
            return (
                ManagedObjectContext(coordinator: coordinator),
                try SyncEngine(coordinator: coordinator, hub: hub, options: options)
            )
        }

        /// Runs `body` on the application's context, after reading what the engine saved since
        /// its last edit, and saves it.
        func edit(_ body: (ManagedObjectContext) throws -> Void) throws {
            try context.performAndWait {
                try context.refreshAllObjects()
                try body(context)
                try context.save()
            }
        }

        /// The store's objects as sorted lines, read by a new context.
        func dump() throws -> [String] {
            try LibraryDump.lines(in: ManagedObjectContext(coordinator: context.coordinator))
        }
    }

    static func insert(_ entity: String, _ values: [String: AttributeValue], in context: ManagedObjectContext) throws
        -> ManagedObject
    {
        let object = try context.insertNewObject(forEntityName: entity)
        for (key, value) in values { try object.setValue(value, forKey: key) }
        return object
    }

    static func first(_ entity: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: entity)).first)
    }

    /// Pushes to `hub`, as `replica` at 500 ms, one push inserting `object` with `values`.
    static func pushInsertion(
        of object: GlobalID, _ entity: String, _ values: [String: SyncValue], by replica: ReplicaID, to hub: StoreHub
    ) async throws {
        let stamp = SyncTimestamp(milliseconds: 500, counter: 0, replica: replica)
        let changes =
            [SyncOperation.Change.insert] + values.sorted { $0.key < $1.key }.map { .set(key: $0.key, value: $0.value) }
        _ = try await hub.push(
            SyncPush(
                replica: replica,
                operations: changes.map { SyncOperation(object: object, entity: entity, stamp: stamp, change: $0) }))
    }

    static func hub(in directory: TemporaryDirectory) throws -> StoreHub {
        try StoreHubTests.openHub(at: directory.file("hub.sqlite"))
    }

    @Test func changesSavedToOneReplicaReachTheOtherAndConcurrentEditsSettleAlike() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: hub)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: hub)

        try sqlite.edit { context in
            let author = try Self.insert("Author", ["name": "Le Guin"], in: context)
            let book = try Self.insert("Book", ["title": "Earthsea", "pages": .integer32(200)], in: context)
            try book.setObject(author, forKey: "author")
        }
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()
        #expect(try xml.dump() == ["Author Le Guin of [\"Earthsea\"]", "Book Earthsea 200 by Le Guin"])

        // Different keys both hold; of the same key, the later clock wins.
        sqlite.wall.set(2_000)
        xml.wall.set(2_500)
        try sqlite.edit { context in
            try Self.first("Book", in: context).setValue("A Wizard of Earthsea", forKey: "title")
            try Self.first("Author", in: context).setValue("Ursula K. Le Guin", forKey: "name")
        }
        try xml.edit { context in
            try Self.first("Book", in: context).setValue(.integer32(183), forKey: "pages")
            try Self.first("Author", in: context).setValue("U. K. Le Guin", forKey: "name")
        }
        let events = Task { [engine = sqlite.engine] in
            var settled: [SyncEvent] = []
            for await event in engine.events {
                if case .conflictSettled = event { settled.append(event) }
                if case .pulled = event { break }
            }
            return settled
        }
        try await xml.engine.syncNow()
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()
        let expected = [
            "Author U. K. Le Guin of [\"A Wizard of Earthsea\"]", "Book A Wizard of Earthsea 183 by U. K. Le Guin",
        ]
        #expect(try sqlite.dump() == expected)
        #expect(try xml.dump() == expected)
        let pulledByXML = await events.value
        #expect(pulledByXML.isEmpty, "the SQLite replica's name was stamped earlier and lost without a conflict")

        // A deletion against a new book by the deleted author: the deletion wins on both.
        sqlite.wall.set(3_000)
        xml.wall.set(3_000)
        try xml.edit { context in try context.delete(try Self.first("Author", in: context)) }
        try sqlite.edit { context in
            let book = try Self.insert("Book", ["title": "Tehanu", "pages": .integer32(250)], in: context)
            try book.setObject(try Self.first("Author", in: context), forKey: "author")
        }
        for replica in [sqlite, xml, sqlite] { try await replica.engine.syncNow() }
        let afterDeletion = ["Book A Wizard of Earthsea 183 by nobody", "Book Tehanu 250 by nobody"]
        #expect(try sqlite.dump() == afterDeletion)
        #expect(try xml.dump() == afterDeletion)
        let hubState = await hub.resolvedObjects()
        #expect(await sqlite.engine.resolvedObjects() == hubState)
        #expect(await xml.engine.resolvedObjects() == hubState)
        #expect(try await sqlite.engine.status().pendingPushes == 0)
        #expect(await hub.lastSequence == 5)
    }

    /// The local store types a replica may be, each with a file name.
    static let storeTypes: [(StoreType, String)] = [
        (.sqlite, "replica.sqlite"), (.xml, "replica.xml"), (.lmdb, "replica.lmdb"), (.binary, "replica.binary"),
    ]

    @Test(arguments: 0..<storeTypes.count)
    func aReplicaOpenedAgainKeepsItsIdentityAndPushesNothingTwice(_ index: Int) async throws {
        let (type, file) = Self.storeTypes[index]
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: hub)
        let other = try Replica(type: type, at: directory.file(file), hub: hub)
        try sqlite.edit { context in
            let author = try Self.insert("Author", ["name": "Herbert"], in: context)
            try Self.insert("Book", ["title": "Dune"], in: context).setObject(author, forKey: "author")
        }
        try await sqlite.engine.syncNow()
        try await other.engine.syncNow()
        let replicaIDs = (sqlite.engine.replica, other.engine.replica)

        for replica in [sqlite, other] {
            try replica.reopen()
            try await replica.engine.syncNow()
        }
        #expect((sqlite.engine.replica, other.engine.replica) == replicaIDs)
        #expect(await hub.lastSequence == 1)
        #expect(try other.dump() == ["Author Herbert of [\"Dune\"]", "Book Dune 0 by Herbert"])

        // An edit after a restart applies to the same objects on both.
        other.wall.set(5_000)
        try other.edit { context in
            try Self.first("Author", in: context).setValue("Frank Herbert", forKey: "name")
            try Self.first("Book", in: context).setValue(.integer32(412), forKey: "pages")
        }
        try await other.engine.syncNow()
        try sqlite.reopen()
        try await sqlite.engine.syncNow()
        #expect(try sqlite.dump() == ["Author Frank Herbert of [\"Dune\"]", "Book Dune 412 by Frank Herbert"])
        #expect(await hub.lastSequence == 2)
        #expect(await other.engine.resolvedObjects() == hub.resolvedObjects())
    }

    @Test(arguments: [FlakyHub.Failure.beforePush, .afterPush])
    func aPushLostBeforeOrAfterTheHubTookItIsSentAgainAndAppliesOnce(_ failure: FlakyHub.Failure) async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.hub(in: directory)
        let flaky = FlakyHub(store)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: flaky)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: store)
        try sqlite.edit { context in _ = try Self.insert("Book", ["title": "Dune"], in: context) }
        await flaky.failNextPush(failure)
        await #expect(throws: CancellationError.self) { try await sqlite.engine.syncNow() }
        #expect(try await sqlite.engine.status().pendingPushes == 1)
        #expect(await store.lastSequence == (failure == .afterPush ? 1 : 0))

        // The process is killed here, and started again: the push kept in the store goes out again.
        try sqlite.reopen()
        try await sqlite.engine.syncNow()
        #expect(try await sqlite.engine.status().pendingPushes == 0)
        #expect(await store.lastSequence == 1)
        #expect(await flaky.pushesSent == 2)
        try await xml.engine.syncNow()
        #expect(try xml.dump() == ["Book Dune 0 by nobody"])
    }

    @Test func aPullCutOffHalfWayResumesAfterTheLastBatchItSaved() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.hub(in: directory)
        let flaky = FlakyHub(store)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: store)
        // Pulls of about one push each.
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: flaky, pullByteLimit: 1)
        for number in 1...6 {
            sqlite.wall.set(Int64(number) * 1_000)
            try sqlite.edit { context in _ = try Self.insert("Book", ["title": .string("Book \(number)")], in: context)
            }
            try await sqlite.engine.syncNow()
        }
        await flaky.failPulls(after: 3)
        await #expect(throws: CancellationError.self) { try await xml.engine.syncNow() }
        #expect(try await xml.engine.status().cursor == 3)
        #expect(try xml.dump().count == 3)

        try xml.reopen()
        try await xml.engine.syncNow()
        #expect(try xml.dump() == (1...6).map { "Book Book \($0) 0 by nobody" }.sorted())
        #expect(await xml.engine.resolvedObjects() == store.resolvedObjects())
    }

    @Test func aLargeSaveGoesOutInPushesWithinTheHubsLimit() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.hub(in: directory)
        let flaky = FlakyHub(store)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: flaky)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: store)
        try sqlite.edit { context in
            for number in 0..<5_000 { _ = try Self.insert("Book", ["title": .string("Book \(number)")], in: context) }
        }
        try await sqlite.engine.syncNow()
        // 20 000 operations (an insert, and the author, pages and title of each book), cut
        // between objects: four pushes of 4 096 and one of 3 616.
        #expect(await flaky.pushesSent == 5)
        #expect(await store.lastSequence == 5)
        try await xml.engine.syncNow()
        #expect(try xml.dump().count == 5_000)
    }

    @Test func syncsAskedForAtOnceRunOneAfterAnotherAndAllEnd() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: hub)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: hub)
        let engine = sqlite.engine
        for round in 0..<20 {
            try sqlite.edit { context in _ = try Self.insert("Book", ["title": .string("Book \(round)")], in: context) }
            // Several callers waiting on one sync at once used to spin on its ended task forever.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { try await engine.syncNow() } }
                try await group.waitForAll()
            }
        }
        #expect(await hub.lastSequence == 20)
        try await xml.engine.syncNow()
        #expect(try xml.dump().count == 20)
    }

    @Test func aSaveLandingWhileASyncPullsIsKeptAndPushed() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.hub(in: directory)
        let flaky = FlakyHub(store)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: flaky)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: store)
        try sqlite.edit { context in
            _ = try Self.insert("Book", ["title": "Dune", "pages": .integer32(1)], in: context)
        }
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()

        xml.wall.set(2_000)
        try xml.edit { context in try Self.first("Book", in: context).setValue(.integer32(412), forKey: "pages") }
        try await xml.engine.syncNow()
        // The SQLite replica's application saves a new title after the sync collected and
        // before it pulls the XML replica's change to the same book.
        sqlite.wall.set(3_000)
        let application = sqlite.context
        await flaky.runBeforeNextPull {
            try application.performAndWait {
                try application.refreshAllObjects()
                try Self.first("Book", in: application).setValue("Dune Messiah", forKey: "title")
                try application.save()
            }
        }
        try await sqlite.engine.syncNow()
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()
        #expect(try sqlite.dump() == ["Book Dune Messiah 412 by nobody"])
        #expect(try xml.dump() == ["Book Dune Messiah 412 by nobody"])
    }

    @Test func anObjectWaitingForAReferenceInALaterBatchGetsItAndNeverPushesItAway() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.hub(in: directory)
        // Pulls of one push each.
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: store, pullByteLimit: 1)
        let other = ReplicaID.random()
        let (book, author) = (GlobalID.random(), GlobalID.random())
        // The book names its author a push before the author arrives.
        try await Self.pushInsertion(
            of: book, "Book", ["title": .attribute("Kindred"), "author": .reference(author)], by: other, to: store)
        try await Self.pushInsertion(of: author, "Author", ["name": .attribute("Butler")], by: other, to: store)
        try await xml.engine.syncNow()
        #expect(try xml.dump() == ["Author Butler of [\"Kindred\"]", "Book Kindred 0 by Butler"])
        try await xml.engine.syncNow()
        #expect(await store.lastSequence == 2, "the replica pushed the reference away")
        #expect(await store.resolvedObjects()[book]?.values["author"] == .reference(author))
    }

    @Test func objectsOfEntitiesTheReplicaLacksAreSkippedAndPullsGoOn() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.hub(in: directory)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: store)
        let other = ReplicaID.random()
        let stamp = SyncTimestamp(milliseconds: 500, counter: 0, replica: other)
        let magazine = GlobalID.random()
        _ = try await store.push(
            SyncPush(
                replica: other,
                operations: [
                    SyncOperation(object: magazine, entity: "Magazine", stamp: stamp, change: .insert),
                    SyncOperation(object: .random(), entity: "Book", stamp: stamp, change: .insert),
                ]))
        try await xml.engine.syncNow()
        #expect(try await xml.engine.status().cursor == 1)
        #expect(try xml.dump() == ["Book nobody 0 by nobody"])
        // Kept in the merged state for a replica on a newer model, never pushed away.
        #expect(await xml.engine.resolvedObjects()[magazine]?.entity == "Magazine")
        try await xml.engine.syncNow()
        #expect(await store.lastSequence == 1)
    }

    @Test func aChangeLargerThanAPushsBytesIsCutIntoSeveral() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.hub(in: directory)
        let flaky = FlakyHub(store)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: flaky)
        let long = String(repeating: "a long title ", count: 250)
        try sqlite.edit { context in
            for number in 0..<2_000 {
                _ = try Self.insert("Book", ["title": .string("\(number) \(long)")], in: context)
            }
        }
        try await sqlite.engine.syncNow()
        // 8 000 operations, about 6.5 MB: more pushes than the 4 096-operation cut alone makes.
        #expect(await flaky.pushesSent > 2)
        #expect(await flaky.largestPush <= 2 << 20)
        #expect(await store.resolvedObjects().count == 2_000)
    }

    @Test func aWatchingEngineShowsAnotherReplicasChangesWhenTheHubMoves() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: hub)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: hub)
        await xml.engine.start()
        #expect(try await xml.engine.status().isWatching)
        let pulled = Task { [engine = xml.engine] in
            for await event in engine.events {
                if case .pulled = event { return true }
            }
            return false
        }
        try sqlite.edit { context in _ = try Self.insert("Author", ["name": "Butler"], in: context) }
        try await sqlite.engine.syncNow()
        #expect(await pulled.value)
        await xml.engine.stop()
        #expect(try xml.dump() == ["Author Butler of []"])
    }

    @Test func changesWhoseHistoryWentBeforeASyncReadItAreStillPushed() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: hub)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: hub)
        try sqlite.edit { context in
            _ = try Self.insert("Book", ["title": "Dune"], in: context)
            _ = try Self.insert("Book", ["title": "Emma"], in: context)
        }
        try await sqlite.engine.syncNow()
        try sqlite.edit { context in
            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            for book in books {
                if try book.value(forKey: "title") == .string("Dune") {
                    try book.setValue(.integer32(412), forKey: "pages")
                    try book.setObject(try Self.insert("Author", ["name": "Herbert"], in: context), forKey: "author")
                } else {
                    try context.delete(book)
                }
            }
        }
        // The application deletes the history the engine has not read, as a whole-file store
        // drops its oldest transactions past its bound.
        let coordinator = sqlite.context.coordinator
        let last = try #require(try coordinator.stores[0].lastHistoryToken())
        _ = try coordinator.execute(.deleteHistory(before: .token(last)))

        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()
        #expect(try xml.dump() == ["Author Herbert of [\"Dune\"]", "Book Dune 412 by Herbert"])
        #expect(await xml.engine.resolvedObjects() == hub.resolvedObjects())
    }

    @Test func aStoreWithoutTheSyncEntitiesOrHistoryIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory)
        let plain = try PersistentStoreCoordinator(
            model: ManagedObjectModel { EntityDescription("Book") { AttributeDescription("title", .string) } },
            storeTypes: [.sqlite])
        _ = try await plain.addStore(type: "SQLite", at: directory.file("plain.sqlite"))
        let modelError = #expect(throws: SyncError.self) { try SyncEngine(coordinator: plain, hub: hub) }
        #expect(modelError?.code == .unsupportedStore)

        let untracked = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        _ = try await untracked.addStore(type: "SQLite", at: directory.file("untracked.sqlite"))
        let engine = try SyncEngine(coordinator: untracked, hub: hub)
        let historyError = await #expect(throws: SyncError.self) { try await engine.syncNow() }
        #expect(historyError?.code == .unsupportedStore)
        #expect(historyError?.message.contains("untracked.sqlite") == true)
    }
}
