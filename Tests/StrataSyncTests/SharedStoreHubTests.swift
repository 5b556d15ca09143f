import Foundation
import Strata
import StrataPostgres
import StrataPostgresTesting
import StrataSQLite
import StrataSync
import StrataTestSupport
import Testing

/// Several hubs writing one store — servers sharing a PostgreSQL hub, or processes sharing a
/// SQLite file: each push is taken once, the log has no gap and no place twice, a hub that did
/// not see another's push merges on top of it instead of writing over it, and a hub whose
/// store posts remote changes wakes its watchers when another pushes.
@Suite struct SharedStoreHubTests {
    /// Where the hubs' store is: a SQLite file or a PostgreSQL schema.
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres

        var testDescription: String { rawValue }

        func url(in directory: TemporaryDirectory) throws -> URL {
            switch self {
            case .sqlite: directory.file("hub.sqlite")
            case .postgres: try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("hub"))
            }
        }

        var type: StoreType { self == .sqlite ? .sqlite : .postgres }
    }

    /// A hub on its own coordinator; one that watches hears of the others' saves every 10 ms.
    static func openHub(
        _ place: Place, at url: URL, watching: Bool = false, historyKept: Duration = .seconds(3600)
    ) throws -> StoreHub {
        try StoreHub(coordinator: coordinator(place, at: url, watching: watching), historyKept: historyKept)
    }

    static func coordinator(_ place: Place, at url: URL, watching: Bool) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(model: SyncModel.hubModel(), storeTypes: [place.type])
        var description = PersistentStoreDescription(type: place.type.name, url: url)
        description.tracksPersistentHistory = watching
        description.postsRemoteChangeNotifications = watching
        coordinator.remoteChangeInterval = .milliseconds(10)
        _ = try coordinator.addStore(description)
        return coordinator
    }

    /// A push setting the title of `book` (inserting it first when `inserting`).
    static func titlePush(
        _ book: GlobalID, _ title: String, by replica: ReplicaID, at milliseconds: Int64,
        inserting: Bool = false
    ) -> SyncPush {
        let stamp = SyncTimestamp(milliseconds: milliseconds, counter: 0, replica: replica)
        var operations = [
            SyncOperation(
                object: book, entity: "Book", stamp: stamp,
                change: .set(key: "title", value: .attribute(.string(title))))
        ]
        if inserting {
            operations.insert(SyncOperation(object: book, entity: "Book", stamp: stamp, change: .insert), at: 0)
        }
        return SyncPush(replica: replica, operations: operations)
    }

    @Test(arguments: Place.allCases)
    func aHubThatMissedAnothersPushMergesOnTopOfIt(place: Place) async throws {
        let directory = try TemporaryDirectory()
        let url = try place.url(in: directory)
        let first = try Self.openHub(place, at: url)
        let second = try Self.openHub(place, at: url)
        let (a, b) = (ReplicaID.random(), ReplicaID.random())
        let book = GlobalID.random()

        _ = try await first.push(Self.titlePush(book, "Dune", by: a, at: 2_000, inserting: true))
        // The second hub has not looked since it opened; its push is earlier, so it loses.
        let late = Self.titlePush(book, "Emma", by: b, at: 1_000)
        let receipt = try await second.push(late)
        #expect(receipt == PushReceipt(sequence: 2, wasDuplicate: false))
        #expect(await second.resolvedObjects()[book]?.values["title"] == .attribute(.string("Dune")))

        let third = try Self.openHub(place, at: url)
        #expect(await third.resolvedObjects()[book]?.values["title"] == .attribute(.string("Dune")))
        #expect(await third.lastSequence == 2)
        // The first hub reads the second's entry before it answers a pull.
        let batch = try await first.pull(after: 0, for: .random(), byteLimit: 1 << 20)
        #expect(batch.entries.map(\.sequence) == [1, 2])
        #expect(batch.cursor == 2)
        #expect(await first.lastSequence == 2)
        // A push sent again to another hub is acknowledged with its first receipt.
        #expect(try await first.push(late) == PushReceipt(sequence: 2, wasDuplicate: true))
    }

    @Test(arguments: Place.allCases)
    func hubsPushingAtOnceTakeEveryPushOnceWithoutAGap(place: Place) async throws {
        let directory = try TemporaryDirectory()
        let url = try place.url(in: directory)
        let hubs = try (0..<3).map { _ in try Self.openHub(place, at: url) }
        let books = (0..<4).map { _ in GlobalID.random() }
        let replicas = hubs.map { _ in ReplicaID.random() }
        let pushesPerHub = 25
        var pushes: [[SyncPush]] = []
        for (index, replica) in replicas.enumerated() {
            pushes.append(
                (0..<pushesPerHub).map { step in
                    // Every hub writes every book, stamped so that the winner is known.
                    let book = books[step % books.count]
                    let milliseconds = Int64(10_000 + step * 10 + index)
                    var push = Self.titlePush(
                        book, "r\(index)-\(step)", by: replica, at: milliseconds, inserting: step < books.count)
                    // And a book of its own, whose record a push that lost its place inserts again.
                    push.operations +=
                        Self.titlePush(.random(), "own", by: replica, at: milliseconds, inserting: true)
                        .operations
                    return push
                })
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (hub, its) in zip(hubs, pushes) {
                group.addTask { for push in its { _ = try await hub.push(push) } }
            }
            try await group.waitForAll()
        }

        let total = hubs.count * pushesPerHub
        var oracle = MergeState()
        for push in pushes.joined() { for operation in push.operations { try oracle.apply(operation) } }
        let fresh = try Self.openHub(place, at: url)
        #expect(await fresh.lastSequence == Int64(total))
        #expect(await fresh.resolvedObjects() == oracle.resolvedObjects())
        for hub in hubs {
            try await hub.refresh()
            #expect(await hub.lastSequence == Int64(total))
            #expect(await hub.resolvedObjects() == oracle.resolvedObjects())
        }
        var cursor: Int64 = 0
        var entries: [HubEntry] = []
        while true {
            let batch = try await hubs[0].pull(after: cursor, for: .random(), byteLimit: 1 << 20)
            entries += batch.entries
            cursor = batch.cursor
            if batch.isComplete { break }
        }
        #expect(entries.map(\.sequence) == Array(1...Int64(total)))
        #expect(Set(entries.map(\.push.id)) == Set(pushes.joined().map(\.id)))
        for (offset, book) in books.enumerated() {
            // The last step that wrote this book wins, by the replica stamping it latest.
            let step = try #require((0..<pushesPerHub).last { $0 % books.count == offset })
            #expect(oracle.resolvedObjects()[book]?.values["title"] == .attribute(.string("r2-\(step)")))
        }
    }

    @Test(arguments: Place.allCases)
    func aHubWhoseStorePostsRemoteChangesWakesItsWatchersWhenAnotherPushes(place: Place) async throws {
        let directory = try TemporaryDirectory()
        let url = try place.url(in: directory)
        let pushing = try Self.openHub(place, at: url, watching: true)
        let watching = try Self.openHub(place, at: url, watching: true)
        let book = GlobalID.random()
        let heads = await watching.heads()
        let waiter = Task { () -> Int64? in
            for await head in heads where head > 0 { return head }
            return nil
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(30))
            waiter.cancel()
        }
        defer { timeout.cancel() }

        _ = try await pushing.push(Self.titlePush(book, "Dune", by: .random(), at: 1_000, inserting: true))
        #expect(await waiter.value == 1, "the watching hub was not told of the other's push")
        // It read the push as it heard of it, before any pull.
        #expect(await watching.resolvedObjects()[book]?.values["title"] == .attribute(.string("Dune")))
    }

    @Test(arguments: Place.allCases)
    func aHubDeletesTheHistoryItsStoreHasKeptLongerThanItSays(place: Place) async throws {
        let directory = try TemporaryDirectory()
        let url = try place.url(in: directory)
        let coordinator = try Self.coordinator(place, at: url, watching: true)
        let keepingNone = try StoreHub(coordinator: coordinator, historyKept: .zero)
        _ = try await keepingNone.push(Self.titlePush(.random(), "Dune", by: .random(), at: 1_000, inserting: true))
        let left = try coordinator.execute(.fetchHistory(after: .token(nil)))
        #expect(left == .transactions([]))

        let keepingAnHour = try Self.openHub(place, at: url, watching: true)
        _ = try await keepingAnHour.push(Self.titlePush(.random(), "Emma", by: .random(), at: 2_000, inserting: true))
        guard case .transactions(let kept) = try coordinator.execute(.fetchHistory(after: .token(nil))) else {
            Issue.record("No transactions answered")
            return
        }
        #expect(kept.count == 1)
    }
}
