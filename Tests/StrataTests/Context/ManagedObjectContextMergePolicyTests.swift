import Foundation
import Testing

@testable import Strata

/// Each merge policy settles two contexts editing the same object as ``MergePolicy`` documents:
/// both read `{name: "Ada", city: "Oslo", age: 30}`; the first sets name and city and saves;
/// the second sets name and age and saves under the policy.
@Suite struct ManagedObjectContextMergePolicyTests {
    let coordinator: PersistentStoreCoordinator
    let id: ObjectID
    let first: ManagedObjectContext
    let second: ManagedObjectContext

    init() throws {
        let model = ManagedObjectModel {
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                AttributeDescription("city", .string)
                AttributeDescription("age", .integer32)
                RelationshipDescription.toMany("friends", destination: "Person", inverse: "friends")
            }
        }
        coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: StoreType.inMemory.name)
        let seed = ManagedObjectContext(coordinator: coordinator)
        id = try seed.performAndWait {
            let person = try seed.insertNewObject(forEntityName: "Person")
            try person.setValue("Ada", forKey: "name")
            try person.setValue("Oslo", forKey: "city")
            try person.setValue(.integer32(30), forKey: "age")
            try seed.save()
            return person.objectID
        }
        first = ManagedObjectContext(coordinator: coordinator, name: "first")
        second = ManagedObjectContext(coordinator: coordinator, name: "second")
        for context in [first, second] {
            try context.performAndWait { _ = try context.existingObject(with: id) }
        }
    }

    /// The first context's save: name "Ann", city "Rome".
    func firstSaves() throws {
        try first.performAndWait {
            let person = try first.existingObject(with: id)
            try person.setValue("Ann", forKey: "name")
            try person.setValue("Rome", forKey: "city")
            try first.save()
        }
    }

    /// The second context's save under `policy`: name "Bea", age 31.
    func secondSaves(_ policy: MergePolicy) throws {
        try second.performAndWait {
            second.mergePolicy = policy
            let person = try second.existingObject(with: id)
            try person.setValue("Bea", forKey: "name")
            try person.setValue(.integer32(31), forKey: "age")
            try second.save()
        }
    }

    func stored() throws -> Snapshot? { try coordinator.store(for: id).snapshot(for: id) }

    func expectStored(_ name: String, _ city: String, _ age: Int32, version: Int64) throws {
        let snapshot = try #require(try stored())
        #expect(snapshot.values["name"] == .string(name))
        #expect(snapshot.values["city"] == .string(city))
        #expect(snapshot.values["age"] == .integer32(age))
        #expect(snapshot.version == version)
    }

    @Test func theErrorPolicyFailsListingTheObjectVersionsAndKeys() throws {
        try firstSaves()
        let error = #expect(throws: ContextError.self) { try secondSaves(.error) }
        #expect(error?.code == .mergeConflict)
        #expect(error?.conflicts.map(\.objectID) == [id])
        #expect(error?.conflicts.first?.cachedVersion == 1)
        #expect(error?.conflicts.first?.storedVersion == 2)
        #expect(error?.conflicts.first?.changedKeys == ["age", "name"])
        try expectStored("Ann", "Rome", 30, version: 2)
    }

    /// Store trump keeps the store's change to `name` and the context's to `age`; object trump
    /// keeps the context's changes and the store's `city`; overwrite writes the context's view.
    @Test(arguments: [
        (MergePolicy.mergeByPropertyStoreTrump, "Ann", "Rome"), (.mergeByPropertyObjectTrump, "Bea", "Rome"),
        (.overwrite, "Bea", "Oslo"),
    ])
    func mergingPoliciesWriteTheDocumentedState(_ policy: MergePolicy, name: String, city: String) throws {
        try firstSaves()
        try secondSaves(policy)
        try expectStored(name, city, 31, version: 3)
    }

    @Test func rollbackDropsTheContextsChangesAndShowsTheStores() throws {
        try firstSaves()
        try secondSaves(.rollback)
        try expectStored("Ann", "Rome", 30, version: 2)
        try second.performAndWait {
            let person = try second.existingObject(with: id)
            #expect(try person.value(forKey: "name") == "Ann")
            #expect(try person.value(forKey: "age") == .integer32(30))
            #expect(!second.hasChanges)
        }
    }

    @Test(arguments: MergePolicy.allCases.filter { $0 != .error })
    func anUpdateOfAnObjectAnotherContextDeletedIsDropped(_ policy: MergePolicy) throws {
        try first.performAndWait {
            try first.delete(first.existingObject(with: id))
            try first.save()
        }
        try secondSaves(policy)
        #expect(try stored() == nil)
        second.performAndWait {
            #expect(second.registeredObject(for: id) == nil)
            #expect(!second.hasChanges)
        }
    }

    @Test(arguments: MergePolicy.allCases.filter { $0 != .error })
    func aDeletionOfAnObjectAnotherContextChanged(_ policy: MergePolicy) throws {
        try firstSaves()
        try second.performAndWait {
            second.mergePolicy = policy
            try second.delete(second.existingObject(with: id))
            try second.save()
        }
        if policy == .rollback {
            try expectStored("Ann", "Rome", 30, version: 2)
            let deleted = try second.performAndWait { try second.existingObject(with: id).isDeleted }
            #expect(!deleted)
        } else {
            #expect(try stored() == nil)
        }
    }

    @Test func storeTrumpLetsTheStoresToManyChangeWin() throws {
        let before = try second.performAndWait { try second.existingObject(with: id).objects(forKey: "friends") }
        #expect(before.isEmpty)
        let friend = try first.performAndWait {
            let friend = try first.insertNewObject(forEntityName: "Person")
            try friend.setValue("Cy", forKey: "name")
            try first.existingObject(with: id).setObjects([friend], forKey: "friends")
            try first.save()
            return friend.objectID
        }
        try second.performAndWait {
            second.mergePolicy = .mergeByPropertyStoreTrump
            let person = try second.existingObject(with: id)
            let other = try second.insertNewObject(forEntityName: "Person")
            try other.setValue("Dan", forKey: "name")
            try person.setObjects([other], forKey: "friends")
            try person.setValue(.integer32(31), forKey: "age")
            try second.save()
        }
        let members = try coordinator.store(for: id).relatedObjectIDs(of: id, relationship: "friends")
        #expect(members == [friend])
        #expect(try stored()?.values["age"] == .integer32(31))
        try second.performAndWait {
            let person = try second.existingObject(with: id)
            #expect(try person.objects(forKey: "friends").map(\.objectID) == [friend])
        }
    }
}
