import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// Moving or migrating a store by copy keeps the references other stores keep to its objects:
/// the copy keeps its objects' numbers, or, when it cannot, the other stores are given the new
/// IDs.
@Suite struct CrossStoreMigrationTests {
    /// Saves the cities and visits of ``CitiesAndVisits`` into an SQLite store of the cities and
    /// a `type` store of the visits in `folder`, after a visit that is then deleted, so that
    /// numbering the visits afresh would change their IDs.
    static func saveStores(
        visitsIn type: String, at folder: TemporaryDirectory
    ) throws -> (cities: [ObjectID], visits: [ObjectID]) {
        let coordinator = try PersistentStoreCoordinator(
            model: CitiesAndVisits.model, storeTypes: StoreType.builtInFileTypes)
        try coordinator.addStore(type: "SQLite", configuration: "Atlas", at: folder.file("atlas.sqlite"))
        let diary = try coordinator.addStore(type: type, configuration: "Diary", at: folder.file("diary"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let gone = try context.performAndWait {
            let gone = try context.insertNewObject(forEntityName: "Visit")
            try context.save()
            return gone
        }
        let saved = try CitiesAndVisits.save(in: coordinator)
        try context.performAndWait {
            try context.delete(gone)
            try context.save()
        }
        for store in coordinator.stores { try coordinator.remove(store) }
        #expect(diary.typeName == type)
        return saved
    }

    /// Reads the cities and visits through `coordinator` and checks they are related as
    /// ``CitiesAndVisits/save(in:)`` related them, with the IDs it returned.
    static func expectRelated(
        in coordinator: PersistentStoreCoordinator, cities: [ObjectID], visits: [ObjectID]
    ) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Visit")
            request.sortDescriptors = [FetchSortDescriptor("note")]
            let fetched = try Array(context.fetch(request))
            #expect(fetched.map(\.objectID) == visits)
            #expect(try fetched.map { try $0.object(forKey: "city")?.objectID } == [cities[0], cities[1], nil])
            #expect(try fetched[0].objects(forKey: "sights").map(\.objectID) == [cities[2], cities[0]])
            let city = try context.existingObject(with: cities[0])
            #expect(try city.objects(forKey: "visits").map(\.objectID) == [visits[0]])
            let seen = try context.existingObject(with: cities[1])
            #expect(try seen.objects(forKey: "seenOn").map(\.objectID) == [visits[2]])
        }
    }

    @Test(arguments: ["LMDB", "XML", "Binary"])
    func migratingAStoreByCopyToANewModelVersionKeepsItsObjectsIDs(type: String) throws {
        let folder = try TemporaryDirectory()
        let (cities, visits) = try Self.saveStores(visitsIn: type, at: folder)
        let version2 = CitiesAndVisits.makeModel(visitsRated: true)
        let storeType = try #require(StoreType.builtInFileTypes.first { $0.name == type })
        let log = CapturedLog()
        try MigrationPlan(models: [CitiesAndVisits.model, version2]).migrateStore(
            at: folder.file("diary"), type: storeType, configuration: "Diary", to: version2, logger: log.logger())
        let coordinator = try PersistentStoreCoordinator(model: version2, storeTypes: StoreType.builtInFileTypes)
        #expect(log.lines("Store migrated").count == 1)
        try coordinator.addStore(type: "SQLite", configuration: "Atlas", at: folder.file("atlas.sqlite"))
        try coordinator.addStore(type: type, configuration: "Diary", at: folder.file("diary"))
        try Self.expectRelated(in: coordinator, cities: cities, visits: visits)
    }

    @Test func addingAStoreThatNeedsMigratingKeepsTheReferencesBothWays() throws {
        let folder = try TemporaryDirectory()
        let (cities, visits) = try Self.saveStores(visitsIn: "XML", at: folder)
        let version2 = CitiesAndVisits.makeModel(visitsRated: true)
        let coordinator = try PersistentStoreCoordinator(model: version2, storeTypes: StoreType.builtInFileTypes)
        coordinator.migrationPlan = MigrationPlan(models: [CitiesAndVisits.model, version2])
        try coordinator.addStore(.xml(at: folder.file("diary"), configuration: "Diary"))
        try coordinator.addStore(.sqlite(at: folder.file("atlas.sqlite"), configuration: "Atlas"))
        try Self.expectRelated(in: coordinator, cities: cities, visits: visits)
    }

    @Test(arguments: ["LMDB", "XML", "Binary", "SQLite"])
    func movingAStoreToAnotherTypeKeepsItsObjectsIDsAndLeavesTheOtherStoreAlone(type: String) throws {
        let folder = try TemporaryDirectory()
        let (cities, visits) = try Self.saveStores(visitsIn: "LMDB", at: folder)
        let coordinator = try PersistentStoreCoordinator(
            model: CitiesAndVisits.model, storeTypes: StoreType.builtInFileTypes)
        let atlas = try coordinator.addStore(type: "SQLite", configuration: "Atlas", at: folder.file("atlas.sqlite"))
        let diary = try coordinator.addStore(type: "LMDB", configuration: "Diary", at: folder.file("diary"))
        let versions = try cities.map { try atlas.snapshot(for: $0)?.version }
        try coordinator.migratePersistentStore(diary, to: folder.file("moved"), type: type)
        #expect(try cities.map { try atlas.snapshot(for: $0)?.version } == versions)
        try Self.expectRelated(in: coordinator, cities: cities, visits: visits)
    }

    /// An in-memory store handing out string keys: a copy into it cannot keep integer numbers.
    final class StringKeyedStore: ForwardingStore, @unchecked Sendable {
        // Safe: it adds no state to ForwardingStore.
        override func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
            try base.permanentIDs(forEntities: entityNames).map { id in
                guard case .integer(let number) = id.reference else { return id }
                return ObjectID(id.namespace, reference: .string("key-\(number)"))
            }
        }
    }

    static let stringKeyed = StoreType(
        name: "StringKeyed", open: { StringKeyedStore(try InMemoryStore.open($0)) },
        readMetadata: { _ in nil }, writeMetadata: { _, _ in }, destroy: { _ in })

    @Test func movingAStoreToATypeThatCannotKeepItsNumbersGivesTheOtherStoresTheNewIDs() throws {
        let folder = try TemporaryDirectory()
        let (cities, visits) = try Self.saveStores(visitsIn: "LMDB", at: folder)
        let coordinator = try PersistentStoreCoordinator(
            model: CitiesAndVisits.model, storeTypes: StoreType.builtInFileTypes + [Self.stringKeyed])
        let atlas = try coordinator.addStore(type: "SQLite", configuration: "Atlas", at: folder.file("atlas.sqlite"))
        let diary = try coordinator.addStore(type: "LMDB", configuration: "Diary", at: folder.file("diary"))
        try coordinator.migratePersistentStore(diary, to: URL?.none, type: "StringKeyed")
        let context = ManagedObjectContext(coordinator: coordinator)
        let newVisits = try context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Visit")
            request.sortDescriptors = [FetchSortDescriptor("note")]
            return try context.fetch(request).map { (visit: ManagedObject) in visit.objectID }
        }
        #expect(newVisits.count == 3)
        #expect(newVisits.allSatisfy { if case .string = $0.reference { true } else { false } })
        #expect(try atlas.relatedObjectIDs(of: cities[0], relationship: "visits") == [newVisits[0]])
        #expect(try atlas.relatedObjectIDs(of: cities[0], relationship: "visits") != [visits[0]])
        try Self.expectRelated(in: coordinator, cities: cities, visits: newVisits)
    }
}

extension CrossStoreMigrationTests {
    /// An SQLite store numbers trips and visits each from 1; an XML store numbers the whole
    /// file, so the copy cannot keep both, and the city store is given the trips' new IDs.
    @Test func movingAStoreWhoseNumbersMeetInTheNewTypeGivesTheOtherStoresTheNewIDs() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(
            model: CrossStoreRelationshipTests.tripModel(), storeTypes: StoreType.builtInFileTypes)
        let diary = try coordinator.addStore(type: "SQLite", configuration: "Diary", at: folder.file("diary.sqlite"))
        try coordinator.addStore(type: "InMemory", configuration: "Atlas")
        let context = ManagedObjectContext(coordinator: coordinator)
        let trips = try context.performAndWait {
            let city = try context.insertNewObject(forEntityName: "City")
            try city.setValue(.string("Arcville"), forKey: "name")
            let trips = try ["spring", "autumn"].map { title in
                let trip = try context.insertNewObject(forEntityName: "Trip")
                try trip.setValue(.string(title), forKey: "title")
                try trip.setObject(city, forKey: "city")
                let visit = try context.insertNewObject(forEntityName: "Visit")
                try visit.setObject(trip, forKey: "trip")
                return trip
            }
            try context.save()
            return trips.map(\.objectID)
        }
        try coordinator.migratePersistentStore(diary, to: folder.file("diary.xml"), type: "XML")
        let reader = ManagedObjectContext(coordinator: coordinator)
        try reader.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "City")
            request.predicate = try FetchPredicate(format: "name == 'Arcville'")
            let city = try #require(try reader.fetch(request).first)
            let moved = try city.objects(forKey: "trips")
            #expect(Set(moved.map(\.objectID)) != Set(trips))
            #expect(Set(try moved.map { try CrossStoreRelationshipTests.string($0, "title") }) == ["spring", "autumn"])
            #expect(try moved.allSatisfy { try $0.object(forKey: "city") === city })
            #expect(try moved.allSatisfy { try $0.objects(forKey: "visits").count == 1 })
        }
    }
}
