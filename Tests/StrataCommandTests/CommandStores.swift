import Foundation
import Strata
import StrataStores
import StrataTestSupport

/// Stores the command tests work on: countries with an ordered list of cities, each city
/// naming its country and its twin cities (many-to-many).
enum CommandStores {
    /// The model: ``TravelModel``.
    static func model() -> ManagedObjectModel { TravelModel.make() }

    /// Writes a store of `type` named `name` in `directory` and returns its URL.
    static func written(type: String, named name: String, in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file(name)
        try write(type: type, at: url)
        return url
    }

    /// Writes a store of `type` at `url` with two countries and three cities.
    static func write(type: String, at url: URL) throws {
        let coordinator = try PersistentStoreCoordinator(model: model(), storeTypes: StoreType.builtInFileTypes)
        try coordinator.addStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let france = try insert("Country", named: "France", into: context)
            let japan = try insert("Country", named: "Japan", into: context)
            let lyon = try insert("City", named: "Lyon", population: 522_000, into: context)
            let paris = try insert("City", named: "Paris", population: 2_100_000, into: context)
            let kyoto = try insert("City", named: "Kyoto", into: context)
            try france.setObjects([paris, lyon], forKey: "cities")
            try japan.setObjects([kyoto], forKey: "cities")
            try paris.setObjects([kyoto], forKey: "twins")
            try context.save()
        }
    }

    /// Writes an SQLite store whose only city refers to a country the store does not hold, and
    /// returns its URL.
    static func writtenWithDanglingReference(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("broken.sqlite")
        let coordinator = try PersistentStoreCoordinator(model: model(), storeTypes: StoreType.builtInFileTypes)
        let store = try coordinator.addStore(type: "SQLite", at: url)
        let ids = try store.permanentIDs(forEntities: ["Country", "City"])
        try store.save(
            StoreChangeSet(inserted: [
                .init(objectID: ids[1], values: ["country": .objectID(ids[0])], expectedVersion: 0)
            ]))
        return url
    }

    private static func insert(
        _ entity: String, named name: String, population: Int64? = nil, into context: ManagedObjectContext
    ) throws -> ManagedObject {
        let object = try context.insertNewObject(forEntityName: entity)
        try object.setValue(.string(name), forKey: "name")
        if let population { try object.setValue(.integer64(population), forKey: "population") }
        return object
    }
}
