import Foundation
import Strata
import StrataPostgres
import StrataStores
import StrataTestSupport
import Testing

/// Coordinators announcing the saves other coordinators and other processes make to SQLite,
/// LMDB and PostgreSQL stores with history on: found by the timer, never their own, refused
/// without history.
@Suite struct RemoteChangeTests {
    static let types: [StoreType] = [.sqlite, .lmdb, .postgres]
    static let watching = StoreOptions(tracksPersistentHistory: true, postsRemoteChangeNotifications: true)

    /// A coordinator with the store of `type` at `url` added with `options`, checking every
    /// 20 milliseconds.
    static func coordinator(
        _ type: StoreType, at url: URL, options: StoreOptions
    ) throws -> (PersistentStoreCoordinator, any IncrementalStore) {
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [type])
        coordinator.remoteChangeInterval = .milliseconds(20)
        return (coordinator, try coordinator.addStore(type: type.name, at: url, options: options))
    }

    /// Where a test puts its shared store of `type`: a file in `folder`, or a schema of its own
    /// on the PostgreSQL test server.
    static func storeURL(_ type: StoreType, in folder: TemporaryDirectory) -> URL {
        type == .postgres
            ? PostgresTestServer.storeURL(schema: PostgresTestServer.uniqueSchema("remote"))
            : folder.file("shared.\(type.name)")
    }

    /// The changes `stream` carries until they hold `count` transactions, or until 60 seconds
    /// pass.
    static func changes(
        in stream: AsyncStream<RemoteStoreChange>, holding count: Int
    ) async -> [RemoteStoreChange] {
        await withTaskGroup(of: [RemoteStoreChange].self) { group in
            group.addTask {
                var found: [RemoteStoreChange] = []
                for await change in stream {
                    found.append(change)
                    if found.flatMap(\.transactions).count >= count { break }
                }
                return found
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return []
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
    }

    @Test(arguments: types)
    func theTimerAnnouncesAnotherCoordinatorsSaveAndNotItsOwn(_ type: StoreType) async throws {
        let folder = try TemporaryDirectory()
        let url = Self.storeURL(type, in: folder)
        let (watcher, store) = try Self.coordinator(type, at: url, options: Self.watching)
        let (writer, _) = try Self.coordinator(type, at: url, options: StoreOptions(tracksPersistentHistory: true))
        let stream = watcher.remoteChanges
        try ContentionModel.saveEntry(tagged: "watcher", through: watcher)
        try ContentionModel.saveEntry(tagged: "writer", through: writer)
        let changes = await Self.changes(in: stream, holding: 1)
        let transactions = changes.flatMap(\.transactions)
        #expect(transactions.map(\.author) == ["writer"])
        #expect(transactions.first?.changes?.count == 1)
        #expect(changes.first?.storeIdentifier == store.identifier)
        #expect(changes.first?.storeURL?.standardizedFileURL == url.standardizedFileURL)
        #expect(changes.last?.historyToken == transactions.last?.token)
    }

    @Test(arguments: types)
    func anotherProcessSavesAreAnnouncedWithTheirAuthorAndChanges(_ type: StoreType) async throws {
        let folder = try TemporaryDirectory()
        let url = Self.storeURL(type, in: folder)
        let (watcher, _) = try Self.coordinator(type, at: url, options: Self.watching)
        let stream = watcher.remoteChanges
        let process = Process()
        process.executableURL = BuiltProducts.executable("HistoryWriterWorker")
        process.arguments = [type.name, url.isFileURL ? url.path : url.absoluteString, "3"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let changes = await Self.changes(in: stream, holding: 2)
        let termination = await process.termination()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(termination.status == 0, "the worker printed \(printed)")
        let transactions = changes.flatMap(\.transactions)
        try #require(transactions.count == 2, "found \(changes)")
        #expect(transactions.allSatisfy { $0.author == "worker" && $0.contextName == "worker context" })
        #expect(transactions.allSatisfy { $0.processIdentifier == "HistoryWriterWorker" })
        #expect(transactions[0].changes?.map(\.changeType) == [.insert, .insert, .insert])
        #expect(transactions[1].changes?.map(\.changeType) == [.update])
        #expect(transactions[1].changes?.first?.updatedProperties == ["writer"])
        let context = ManagedObjectContext(coordinator: watcher)
        var request = FetchRequest<ManagedObject>(entityName: "Entry")
        request.predicate = try FetchPredicate(format: "writer == 'renamed'")
        let renamed = try context.performAndWait { () throws in try context.count(for: request) }
        #expect(renamed == 1)
    }

    @Test(arguments: types)
    func aContextMergingAutomaticallySeesAnotherCoordinatorsUpdate(_ type: StoreType) async throws {
        let folder = try TemporaryDirectory()
        let url = Self.storeURL(type, in: folder)
        let (writer, _) = try Self.coordinator(type, at: url, options: StoreOptions(tracksPersistentHistory: true))
        try ContentionModel.saveEntry(tagged: "first", through: writer)
        let (watcher, _) = try Self.coordinator(type, at: url, options: Self.watching)
        let stream = watcher.remoteChanges
        let context = ManagedObjectContext(coordinator: watcher)
        let id = try context.performAndWait { () throws in
            context.automaticallyMergesChangesFromParent = true
            let entry = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Entry")).first)
            #expect(try entry.value(forKey: "writer") == .string("first"))
            return entry.objectID
        }
        let editor = ManagedObjectContext(coordinator: writer)
        try editor.performAndWait { () throws in
            try editor.existingObject(with: id).setValue(.string("second"), forKey: "writer")
            try editor.save()
        }
        _ = await Self.changes(in: stream, holding: 1)
        let merged = try context.performAndWait { () throws in
            try context.existingObject(with: id).value(forKey: "writer")
        }
        #expect(merged == .string("second"))
    }

    @Test func aSequenceEndsWhenItsCoordinatorGoesAway() async throws {
        let folder = try TemporaryDirectory()
        var watcher: PersistentStoreCoordinator? = try Self.coordinator(
            .sqlite, at: folder.file("gone.sqlite"), options: Self.watching
        ).0
        let stream = try #require(watcher).remoteChanges
        watcher = nil
        let ended = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in stream {}
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(ended)
    }

    @Test func postingRemoteChangesWithoutHistoryIsRefused() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.sqlite])
        #expect {
            try coordinator.addStore(
                type: StoreType.sqlite.name, at: folder.file("plain.sqlite"),
                options: StoreOptions(postsRemoteChangeNotifications: true))
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .unsupported && error?.message.contains("tracksPersistentHistory") == true
        }
        #expect(coordinator.stores.isEmpty)
    }
}
