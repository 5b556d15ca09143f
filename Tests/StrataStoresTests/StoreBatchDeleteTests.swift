import Foundation
import StrataLMDB
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

@testable import Strata

/// The SQLite, LMDB and PostgreSQL stores run batch deletions themselves (SQLite and PostgreSQL
/// in SQL, a statement per rule and table), with the delete rules a context applies: cascade
/// across tables, nullify of to-one and to-many inverses, many-to-many join rows, and deny.
@Suite struct StoreBatchDeleteTests {
    static let types = [StoreType.sqlite.name, StoreType.lmdb.name, StoreType.postgres.name]

    private static let model: ManagedObjectModel = ManagedObjectModel {
        EntityDescription("Office") {
            AttributeDescription("city", .string)
            RelationshipDescription.toMany("desks", destination: "Desk", inverse: "office", deleteRule: .cascade)
            RelationshipDescription.toMany("staff", destination: "Worker", inverse: "office")
        }
        EntityDescription("Desk") {
            AttributeDescription("number", .integer64)
            RelationshipDescription.toOne("office", destination: "Office", inverse: "desks")
            RelationshipDescription.toMany("keys", destination: "Key", inverse: "desk", deleteRule: .deny)
        }
        EntityDescription("Key") {
            AttributeDescription("label", .string)
            RelationshipDescription.toOne("desk", destination: "Desk", inverse: "keys")
        }
        EntityDescription("Worker") {
            AttributeDescription("name", .string)
            RelationshipDescription.toOne("office", destination: "Office", inverse: "staff")
            RelationshipDescription.toMany("teams", destination: "Team", inverse: "workers")
        }
        EntityDescription("Team") {
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("workers", destination: "Worker", inverse: "teams")
        }
    }

    /// Two offices with two desks each, a worker in each office, both in one team.
    private struct Saved {
        let offices: [ObjectID], desks: [ObjectID], workers: [ObjectID], team: ObjectID
    }

    /// A store of the type named `typeName` in `folder` (or a schema of its own on the
    /// PostgreSQL test server) holding two offices with two desks each, a worker in each
    /// office, both in one team.
    private func open(_ typeName: String, in folder: TemporaryDirectory, history: Bool = false) throws -> (
        PersistentStoreCoordinator, any IncrementalStore, Saved
    ) {
        let type = try #require([StoreType.sqlite, .lmdb, .postgres].first { $0.name == typeName })
        let url =
            type == .postgres
            ? PostgresTestServer.storeURL(schema: PostgresTestServer.uniqueSchema("offices"))
            : folder.file("offices.\(typeName)")
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [type])
        let store = try coordinator.addStore(
            type: typeName, at: url, options: StoreOptions(tracksPersistentHistory: history))
        let context = ManagedObjectContext(coordinator: coordinator)
        let saved = try context.performAndWait { () throws in
            let team = try context.insertNewObject(forEntityName: "Team")
            var offices: [ManagedObject] = []
            var desks: [ManagedObject] = []
            var workers: [ManagedObject] = []
            for city in ["Oslo", "Lima"] {
                let office = try context.insertNewObject(forEntityName: "Office")
                try office.setValue(.string(city), forKey: "city")
                for number in 1...2 {
                    let desk = try context.insertNewObject(forEntityName: "Desk")
                    try desk.setValue(.integer64(Int64(number)), forKey: "number")
                    try desk.setObject(office, forKey: "office")
                    desks.append(desk)
                }
                let worker = try context.insertNewObject(forEntityName: "Worker")
                try worker.setObject(office, forKey: "office")
                try worker.setObjects([team], forKey: "teams")
                offices.append(office)
                workers.append(worker)
            }
            try context.save()
            return Saved(
                offices: offices.map(\.objectID), desks: desks.map(\.objectID), workers: workers.map(\.objectID),
                team: team.objectID)
        }
        return (coordinator, store, saved)
    }

    @Test(arguments: types)
    func aDeletionCascadesNullifiesAndRaisesVersions(_ typeName: String) throws {
        let folder = try TemporaryDirectory()
        let (_, store, saved) = try open(typeName, in: folder)
        let result = try #require(
            try store.executeBatchDelete(
                StoreBatchDelete(
                    .matching(
                        entityName: "Office", includesSubentities: true,
                        predicate: try FetchPredicate(format: "city == 'Oslo'")))))
        #expect(result.matched == [saved.offices[0]])
        #expect(Set(result.deleted) == Set([saved.offices[0]] + saved.desks[..<2]))
        #expect(result.updated == [saved.workers[0]])
        #expect(result.denials.isEmpty)
        for id in result.deleted { #expect(try store.snapshot(for: id) == nil) }
        let worker = try #require(try store.snapshot(for: saved.workers[0]))
        #expect(worker.values["office"] == .null)
        #expect(worker.version == 2)
        #expect(try store.snapshot(for: saved.workers[1])?.version == 1)
        #expect(try store.relatedObjectIDs(of: saved.offices[1], relationship: "desks").count == 2)
    }

    @Test(arguments: types)
    func aWholeTableGoesAtOnceWithItsJoinRows(_ typeName: String) throws {
        let folder = try TemporaryDirectory()
        let (_, store, saved) = try open(typeName, in: folder)
        let result = try #require(
            try store.executeBatchDelete(
                StoreBatchDelete(.matching(entityName: "Worker", includesSubentities: true, predicate: nil))))
        #expect(Set(result.matched) == Set(saved.workers))
        #expect(Set(result.deleted) == Set(saved.workers))
        #expect(Set(result.updated) == Set(saved.offices + [saved.team]))
        #expect(try store.relatedObjectIDs(of: saved.team, relationship: "workers").isEmpty)
        #expect(try store.snapshot(for: saved.team)?.version == 2)
        for office in saved.offices {
            #expect(try store.relatedObjectIDs(of: office, relationship: "staff").isEmpty)
        }
    }

    @Test(arguments: types)
    func aWholeTableCascadesAndNullifiesIntoTheTablesThatStay(_ typeName: String) throws {
        let folder = try TemporaryDirectory()
        let (_, store, saved) = try open(typeName, in: folder)
        let result = try #require(
            try store.executeBatchDelete(
                StoreBatchDelete(.matching(entityName: "Office", includesSubentities: true, predicate: nil))))
        #expect(Set(result.matched) == Set(saved.offices))
        #expect(Set(result.deleted) == Set(saved.offices + saved.desks))
        #expect(Set(result.updated) == Set(saved.workers))
        for id in saved.offices + saved.desks { #expect(try store.snapshot(for: id) == nil) }
        for id in saved.workers {
            let worker = try #require(try store.snapshot(for: id))
            #expect(worker.values["office"] == .null)
            #expect(worker.version == 2)
        }
        #expect(try store.snapshot(for: saved.team)?.version == 1)
    }

    @Test(arguments: types)
    func aDeletionThatListsNothingGivesTheCountItMatched(_ typeName: String) throws {
        let folder = try TemporaryDirectory()
        let (_, store, saved) = try open(typeName, in: folder)
        let whole = try #require(
            try store.executeBatchDelete(
                StoreBatchDelete(
                    .matching(entityName: "Worker", includesSubentities: true, predicate: nil), listsObjectIDs: false)))
        #expect(whole == StoreBatchDeleteResult(matchedCount: 2))
        let some = try #require(
            try store.executeBatchDelete(
                StoreBatchDelete(
                    .matching(
                        entityName: "Desk", includesSubentities: true,
                        predicate: try FetchPredicate(format: "number == 1")),
                    listsObjectIDs: false)))
        #expect(some == StoreBatchDeleteResult(matchedCount: 2))
        for id in saved.workers + [saved.desks[0], saved.desks[2]] { #expect(try store.snapshot(for: id) == nil) }
        #expect(try store.snapshot(for: saved.desks[1]) != nil)
        #expect(try store.snapshot(for: saved.offices[0])?.version == 3)
    }

    @Test(arguments: types)
    func aDenyRuleRefusesTheDeletionAndNothingChanges(_ typeName: String) throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store, saved) = try open(typeName, in: folder)
        let context = ManagedObjectContext(coordinator: coordinator)
        let key = try context.performAndWait { () throws in
            let key = try context.insertNewObject(forEntityName: "Key")
            try key.setObject(try context.existingObject(with: saved.desks[3]), forKey: "desk")
            try context.save()
            return key.objectID
        }
        let result = try #require(
            try store.executeBatchDelete(
                StoreBatchDelete(.matching(entityName: "Office", includesSubentities: true, predicate: nil))))
        #expect(
            result.denials == [
                StoreBatchDeleteResult.Denial(
                    objectID: saved.desks[3], relationship: "keys", destination: key, remainingCount: 1)
            ])
        #expect(result.deleted.isEmpty)
        for id in saved.offices + saved.desks { #expect(try store.snapshot(for: id) != nil) }
        #expect(try store.snapshot(for: saved.workers[0])?.values["office"] == .objectID(saved.offices[0]))
        let error = try #require(throws: ContextError.self) {
            try coordinator.execute(BatchDeleteRequest(entityName: "Office"))
        }
        #expect(error.code == .validation)
        #expect(error.validationErrors.map(\.code) == [.deleteDenied])
        #expect(error.message.contains("'Desk.keys'"))
    }

    @Test(arguments: types)
    func objectIDsTheStoreDoesNotHoldFailTheDeletion(_ typeName: String) throws {
        let folder = try TemporaryDirectory()
        let (_, store, saved) = try open(typeName, in: folder)
        _ = try store.executeBatchDelete(StoreBatchDelete(.objects([saved.desks[0]])))
        let error = try #require(throws: StoreError.self) {
            try store.executeBatchDelete(StoreBatchDelete(.objects([saved.desks[1], saved.desks[0]])))
        }
        #expect(error.code == .unknownObject)
        #expect(error.message.contains("\(saved.desks[0])"))
        #expect(try store.snapshot(for: saved.desks[1]) != nil)
    }

    @Test(arguments: types)
    func aStoreRecordingHistoryRecordsTheDeletionAsOneTransaction(_ typeName: String) throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store, saved) = try open(typeName, in: folder, history: true)
        #expect(try store.executeBatchDelete(StoreBatchDelete(.objects(saved.workers))) == nil)
        var request = BatchDeleteRequest(objectIDs: saved.workers)
        request.resultType = .count
        let context = ManagedObjectContext(coordinator: coordinator)
        context.performAndWait { context.transactionAuthor = "cleaner" }
        #expect(try context.performAndWait { try context.execute(request) }.count == 2)
        guard case .transactions(let transactions) = try coordinator.execute(.fetchHistory(after: .token(nil))) else {
            Issue.record("A history fetch gave no transactions.")
            return
        }
        #expect(transactions.count == 2)
        #expect(transactions.last?.author == "cleaner")
        let changes = transactions.last?.changes ?? []
        #expect(Set(changes.filter { $0.changeType == .delete }.map(\.changedObjectID)) == Set(saved.workers))
        #expect(
            Set(changes.filter { $0.changeType == .update }.map(\.changedObjectID))
                == Set(saved.offices + [saved.team]))
    }
}
