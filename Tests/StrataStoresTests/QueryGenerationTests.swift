import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// Contexts pinned to a query generation, on the stores that declare query generations (SQLite
/// and LMDB) and on one that does not (XML): the seed talk's example, the rules for stores
/// added or removed later, tokens of other coordinators, child contexts and the row cache.
@Suite struct QueryGenerationTests {
    static let generationalTypes: [StoreType] = [.sqlite, .lmdb]

    /// A coordinator with a store of `type` in `folder` holding the travel graph (France: Lyon,
    /// Paris; Japan: Osaka, Kyoto), and the store.
    static func stack(
        _ type: StoreType, in folder: TemporaryDirectory, name: String = "travel"
    ) throws -> (PersistentStoreCoordinator, any IncrementalStore) {
        let coordinator = try PersistentStoreCoordinator(model: TravelModel.make(), storeTypes: [type])
        let store = try coordinator.addStore(type: type.name, at: folder.file("\(name).\(type.name)"))
        return (coordinator, store)
    }

    /// A coordinator as ``stack(_:in:name:)`` makes it, with the graph inserted.
    static func seeded(_ type: StoreType, in folder: TemporaryDirectory) throws -> PersistentStoreCoordinator {
        let (coordinator, _) = try stack(type, in: folder)
        try insertTravelGraph(into: coordinator)
        return coordinator
    }

    /// Saves, from a context of its own, the change `edit` makes to the object `id`.
    static func edit(
        _ id: ObjectID, in coordinator: PersistentStoreCoordinator, _ edit: (ManagedObject) throws -> Void
    ) throws {
        let editor = ManagedObjectContext(coordinator: coordinator, name: "editor")
        try editor.performAndWait { () throws in
            let object = try editor.existingObject(with: id)
            try edit(object)
            try editor.save()
        }
    }

    static func insertTravelGraph(into coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            func make(_ entity: String, _ name: String) throws -> ManagedObject {
                let object = try context.insertNewObject(forEntityName: entity)
                try object.setValue(.string(name), forKey: "name")
                return object
            }
            let usa = try make("Country", "USA")
            let cities = try ["Cupertino", "Palo Alto"].map { try make("City", $0) }
            try usa.setObjects(cities, forKey: "cities")
            try context.save()
        }
    }

    static func cityNamed(_ name: String, in context: ManagedObjectContext) throws -> ObjectID {
        var request = FetchRequest<ManagedObject>(entityName: "City")
        request.predicate = try FetchPredicate(format: "name == %@", arguments: [name])
        return try #require(try context.fetchObjectIDs(request).first)
    }

    /// The seed talk's example: one context deletes Cupertino and saves; a context pinned
    /// before still fires Cupertino's fault and sees it among the country's cities.
    @Test(arguments: generationalTypes)
    func aPinnedContextStillFiresTheFaultOfCupertinoDeletedElsewhere(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let coordinator = try Self.seeded(type, in: folder)
        let pinned = ManagedObjectContext(coordinator: coordinator, name: "pinned")
        let (cupertino, usa) = try pinned.performAndWait { () throws in
            try pinned.setQueryGenerationFrom(.current)
            let usa = try #require(try pinned.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Country")).first)
            return (try Self.cityNamed("Cupertino", in: pinned), usa)
        }
        try Self.edit(cupertino, in: coordinator) { try $0.managedObjectContext?.delete($0) }
        try pinned.performAndWait { () throws in
            let fault = pinned.object(with: cupertino)
            #expect(try fault.value(forKey: "name") == "Cupertino")
            #expect(!fault.isDeleted)
            let cities = try pinned.object(with: usa).objects(forKey: "cities").map { try $0.value(forKey: "name") }
            #expect(cities == ["Cupertino", "Palo Alto"])
            #expect(try pinned.count(for: FetchRequest<ManagedObject>(entityName: "City")) == 2)
        }
        let unpinned = ManagedObjectContext(coordinator: coordinator)
        try unpinned.performAndWait { () throws in
            #expect(try unpinned.count(for: FetchRequest<ManagedObject>(entityName: "City")) == 1)
        }
    }

    /// A pinned context reads an old state after another context saved: what it reads must not
    /// reach the coordinator's row cache, where an unpinned context would take it for current.
    @Test(arguments: generationalTypes)
    func whatAPinnedContextReadsStaysOutOfTheRowCache(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let coordinator = try Self.seeded(type, in: folder)
        let pinned = ManagedObjectContext(coordinator: coordinator)
        let cupertino = try pinned.performAndWait { () throws in
            try pinned.setQueryGenerationFrom(.current)
            return try Self.cityNamed("Cupertino", in: pinned)
        }
        try Self.edit(cupertino, in: coordinator) { try $0.setValue("Cupertino, CA", forKey: "name") }
        try pinned.performAndWait { () throws in
            #expect(try pinned.object(with: cupertino).value(forKey: "name") == "Cupertino")
        }
        let reader = ManagedObjectContext(coordinator: coordinator)
        try reader.performAndWait { () throws in
            #expect(try reader.object(with: cupertino).value(forKey: "name") == "Cupertino, CA")
        }
    }

    /// A store added after the generation was taken is not read by the pinned context, whose
    /// fetches leave it out and whose loads of its objects fail naming it; advancing reads it.
    @Test(arguments: generationalTypes)
    func storesAddedAfterTheGenerationAreInvisibleToIt(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let coordinator = try Self.seeded(type, in: folder)
        let pinned = ManagedObjectContext(coordinator: coordinator)
        let all = FetchRequest<ManagedObject>(entityName: "City")
        try pinned.performAndWait { () throws in
            try pinned.setQueryGenerationFrom(.current)
            #expect(try pinned.count(for: all) == 2)
        }
        let later = try coordinator.addStore(type: type.name, at: folder.file("later.\(type.name)"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let tokyo = try context.performAndWait { () throws in
            let tokyo = try context.insertNewObject(forEntityName: "City")
            try tokyo.setValue("Tokyo", forKey: "name")
            context.assign(tokyo, to: later)
            try context.save()
            return tokyo.objectID
        }
        try pinned.performAndWait { () throws in
            #expect(try pinned.count(for: all) == 2)
            #expect(try pinned.fetchObjectIDs(all).contains(tokyo) == false)
            let error = #expect(throws: ContextError.self) { try pinned.existingObject(with: tokyo) }
            #expect(error?.code == .objectNotFound)
            try pinned.refreshAllObjects()
            #expect(try pinned.count(for: all) == 3)
        }
    }

    /// Removing every store of a pinned context's generation makes its fetches fail clearly.
    @Test(arguments: generationalTypes)
    func removingTheGenerationsStoresMakesFetchesFailNamingTheGeneration(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store) = try Self.stack(type, in: folder)
        try Self.insertTravelGraph(into: coordinator)
        let pinned = ManagedObjectContext(coordinator: coordinator)
        try pinned.performAndWait { () throws in
            try pinned.setQueryGenerationFrom(.current)
            _ = try pinned.count(for: FetchRequest<ManagedObject>(entityName: "City"))
        }
        try coordinator.remove(store)
        try coordinator.addStore(type: type.name, at: folder.file("other.\(type.name)"))
        try pinned.performAndWait { () throws in
            let error = #expect(throws: ContextError.self) {
                try pinned.count(for: FetchRequest<ManagedObject>(entityName: "City"))
            }
            #expect(error?.code == .noStore)
            #expect(error?.message.contains("query generation") == true)
        }
    }

    /// A token pins only contexts of its own coordinator; a child context reads through its
    /// parent's generation and cannot be pinned itself.
    @Test func foreignTokensAndChildContextsAreRefused() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, _) = try Self.stack(.sqlite, in: folder)
        let (other, _) = try Self.stack(.sqlite, in: folder, name: "other")
        let pinned = ManagedObjectContext(coordinator: coordinator)
        let token = try pinned.performAndWait { () throws in
            try pinned.setQueryGenerationFrom(.current)
            _ = try pinned.count(for: FetchRequest<ManagedObject>(entityName: "City"))
            return try #require(pinned.queryGenerationToken)
        }
        let stranger = ManagedObjectContext(coordinator: other)
        try stranger.performAndWait { () throws in
            let error = #expect(throws: ContextError.self) { try stranger.setQueryGenerationFrom(token) }
            #expect(error?.code == .invalidQueryGeneration)
            #expect(stranger.queryGenerationToken == nil)
        }
        let child = ManagedObjectContext(parent: pinned)
        try child.performAndWait { () throws in
            let error = #expect(throws: ContextError.self) { try child.setQueryGenerationFrom(.current) }
            #expect(error?.code == .invalidQueryGeneration)
            #expect(child.queryGenerationToken == nil)
        }
    }

    /// A child context sees its parent's generation plus the parent's unsaved changes.
    @Test(arguments: generationalTypes)
    func aChildContextReadsThroughItsParentsGeneration(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let coordinator = try Self.seeded(type, in: folder)
        let parent = ManagedObjectContext(coordinator: coordinator)
        let cupertino = try parent.performAndWait { () throws in
            try parent.setQueryGenerationFrom(.current)
            let berlin = try parent.insertNewObject(forEntityName: "City")
            try berlin.setValue("Berlin", forKey: "name")
            return try Self.cityNamed("Cupertino", in: parent)
        }
        try Self.edit(cupertino, in: coordinator) { try $0.managedObjectContext?.delete($0) }
        let child = ManagedObjectContext(parent: parent)
        try child.performAndWait { () throws in
            var request = FetchRequest<ManagedObject>(entityName: "City")
            request.sortDescriptors = [FetchSortDescriptor("name")]
            let names = try child.fetch(request).map { try $0.value(forKey: "name") }
            #expect(names == ["Berlin", "Cupertino", "Palo Alto"])
        }
    }

    /// A store without query generations (XML) is read at its latest state by a pinned
    /// context, as documented, while the context still has a token.
    @Test func aStoreWithoutGenerationsIsReadAtItsLatestState() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store) = try Self.stack(.xml, in: folder)
        #expect(!store.capabilities.contains(.queryGenerations))
        try Self.insertTravelGraph(into: coordinator)
        let pinned = ManagedObjectContext(coordinator: coordinator)
        let all = FetchRequest<ManagedObject>(entityName: "City")
        try pinned.performAndWait { () throws in
            try pinned.setQueryGenerationFrom(.current)
            #expect(try pinned.count(for: all) == 2)
            #expect(pinned.queryGenerationToken != nil)
        }
        let editor = ManagedObjectContext(coordinator: coordinator)
        try editor.performAndWait { () throws in
            try editor.insertNewObject(forEntityName: "City").setValue("Tokyo", forKey: "name")
            try editor.save()
        }
        try pinned.performAndWait { () throws in #expect(try pinned.count(for: all) == 3) }
    }

    /// `current` pins lazily: the token is `current` until the first read, then names the
    /// generation; unpinning gives `nil`.
    @Test func currentPinsAtTheFirstRead() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, _) = try Self.stack(.lmdb, in: folder)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            #expect(context.queryGenerationToken == nil)
            try context.setQueryGenerationFrom(.current)
            #expect(context.queryGenerationToken == .current)
            _ = try context.count(for: FetchRequest<ManagedObject>(entityName: "City"))
            let token = try #require(context.queryGenerationToken)
            #expect(token != .current && token < .current)
            try context.setQueryGenerationFrom(nil)
            #expect(context.queryGenerationToken == nil)
        }
    }
}
