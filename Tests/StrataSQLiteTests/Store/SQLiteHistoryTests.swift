import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// The SQLite store's persistent history at sizes the conformance checks do not reach: change
/// rows written in batches and one at a time with tombstones, in one transaction, in order.
@Suite struct SQLiteHistoryTests {
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("title", .string).preservedAfterDeletion()
                AttributeDescription("body", .string)
            }
        }
        try! model.freeze()  // A fixed, valid model: freezing cannot fail.
        return model
    }()

    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func open(tracking: Bool = true) throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        try coordinator.addStore(
            type: "SQLite", at: directory.file("notes.sqlite"), options: StoreOptions(tracksPersistentHistory: tracking)
        )
        return (coordinator, ManagedObjectContext(coordinator: coordinator))
    }

    private func transactions(_ coordinator: PersistentStoreCoordinator) throws -> [PersistentHistoryTransaction] {
        guard case .transactions(let transactions) = try coordinator.execute(.fetchHistory(after: .token(nil))) else {
            return []
        }
        return transactions
    }

    @Test func aLargeSaveIsOneTransactionWithEveryChangeInOrder() throws {
        let (coordinator, context) = try open()
        let ids = try context.performAndWait { () throws in
            let notes = try (0..<300).map { index in
                let note = try context.insertNewObject(forEntityName: "Note")
                try note.setValue(.string("note \(index)"), forKey: "title")
                return note
            }
            try context.save()
            return notes.map(\.objectID)
        }
        try context.performAndWait { () throws in
            for id in ids[0..<200] { try context.delete(context.object(with: id)) }
            try context.object(with: ids[250]).setValue("changed", forKey: "body")
            try context.save()
        }
        let history = try transactions(coordinator)
        #expect(history.count == 2)
        let inserts = try #require(history.first?.changes)
        #expect(inserts.map(\.changedObjectID) == ids)
        #expect(inserts.map(\.changeIdentifier) == Array(1...300))
        let second = try #require(history.last?.changes)
        #expect(second.filter { $0.changeType == .update }.map(\.updatedProperties) == [["body"]])
        let deletions = second.filter { $0.changeType == .delete }
        #expect(
            deletions.map(\.changedObjectID).sorted { "\($0)" < "\($1)" } == ids[0..<200].sorted { "\($0)" < "\($1)" })
        let titles = Set(deletions.compactMap { $0.tombstone?["title"] })
        #expect(titles == Set((0..<200).map { AttributeValue.string("note \($0)") }))
        #expect(deletions.allSatisfy { $0.tombstone?.keys.sorted() == ["title"] })
    }

    @Test func aContextMergesTransactionsFetchedAfterADate() throws {
        let (coordinator, writer) = try open()
        let ids = try writer.performAndWait { () throws in
            let notes = try (0..<2).map { index in
                let note = try writer.insertNewObject(forEntityName: "Note")
                try note.setValue(.string("note \(index)"), forKey: "title")
                return note
            }
            try writer.save()
            return notes.map(\.objectID)
        }
        let reader = ManagedObjectContext(coordinator: coordinator)
        let loaded = try reader.performAndWait { () throws in try ids.map { try reader.existingObject(with: $0) } }
        let start = Date()
        try writer.performAndWait { () throws in
            try writer.object(with: ids[0]).setValue("renamed", forKey: "title")
            try writer.delete(writer.object(with: ids[1]))
            try writer.save()
        }
        guard case .transactions(let since) = try coordinator.execute(.fetchHistory(after: .date(start))) else {
            Issue.record("A history fetch after a date gave no transactions.")
            return
        }
        #expect(since.map(\.token.transactionNumber) == [2])
        try reader.performAndWait { () throws in
            for transaction in since { try reader.mergeChanges(fromHistoryTransaction: transaction) }
            #expect(try loaded[0].value(forKey: "title") == "renamed")
            #expect(loaded[1].isDeleted && reader.registeredObject(for: ids[1]) == nil)
        }
    }

    @Test func damagedHistoryRowsAreReportedNamingTheRowAndColumn() throws {
        let (coordinator, context) = try open()
        try context.performAndWait { () throws in
            let note = try context.insertNewObject(forEntityName: "Note")
            try note.setValue("kept", forKey: "title")
            try context.save()
            try context.delete(note)
            try context.save()
        }
        let url = directory.file("notes.sqlite")
        try SQLiteConnection(path: url.path, mode: .readWrite).execute(
            script: "UPDATE ACHANGE SET ZTOMBSTONE0 = x'00' WHERE ZCHANGETYPE = 2")
        let tombstone = #expect(throws: StoreError.self) { try transactions(coordinator) }
        #expect(tombstone?.code == .corrupt)
        #expect(tombstone?.message.contains("ZTOMBSTONE0") == true)
        #expect(tombstone?.message.contains("'Note.title'") == true)
        try SQLiteConnection(path: url.path, mode: .readWrite).execute(
            script: "UPDATE ATRANSACTION SET ZTIMESTAMP = NULL WHERE Z_PK = 1")
        let timestamp = #expect(throws: StoreError.self) {
            try coordinator.execute(PersistentHistoryRequest(.fetch(after: .token(nil)), resultType: .transactionsOnly))
        }
        #expect(timestamp?.code == .corrupt)
        #expect(timestamp?.message.contains("ATRANSACTION row 1") == true)
    }

    @Test func aStoreOpenedWithoutTrackingRecordsNothing() throws {
        try {
            let (coordinator, context) = try open(tracking: false)
            try context.performAndWait { () throws in
                try context.insertNewObject(forEntityName: "Note").setValue("untracked", forKey: "title")
                try context.save()
            }
            let store = try #require(coordinator.stores.first)
            #expect(try store.lastHistoryToken() == nil)
            #expect(try coordinator.execute(.fetchHistory(after: .token(nil))) == .transactions([]))
            let error = #expect(throws: StoreError.self) {
                try coordinator.execute(PersistentHistoryRequest(.fetch(after: .token(nil)), affectedStores: [store]))
            }
            #expect(error?.code == .unsupported)
        }()
        let (coordinator, context) = try open()
        #expect(try transactions(coordinator).isEmpty)
        try context.performAndWait { () throws in
            try context.insertNewObject(forEntityName: "Note").setValue("tracked", forKey: "title")
            try context.save()
        }
        #expect(try transactions(coordinator).map(\.token.transactionNumber) == [1])
    }

    /// A store that declares no persistent history, whatever it was opened with.
    final class StoreWithoutHistory: ForwardingStore, @unchecked Sendable {
        // Safe: it adds nothing to its base class.
        override var capabilities: StoreCapabilities { base.capabilities.subtracting(.persistentHistory) }
    }

    @Test func aStoreTypeWithoutHistoryRefusesToTrackIt() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(model: Self.model)
        let base = try SQLiteStoreFile.open(
            StoreOpenRequest(
                model: Self.model, url: folder.file("plain.sqlite"),
                options: StoreOptions(tracksPersistentHistory: true)))
        let error = #expect(throws: StoreError.self) {
            try coordinator.add(StoreWithoutHistory(base))
        }
        #expect(error?.code == .unsupported)
        #expect(coordinator.stores.isEmpty)
    }
}
