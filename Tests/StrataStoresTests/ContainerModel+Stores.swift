import Foundation
import Strata
import StrataStores

extension ContainerModel {
    /// Writes a store of `type` at `url` holding one city.
    static func writeStore(type: String, at url: URL) throws {
        let coordinator = try PersistentStoreCoordinator(model: make(), storeTypes: StoreType.builtInFileTypes)
        try coordinator.addStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "City").setValue(.string("Oslo"), forKey: "name")
            try context.save()
        }
    }
}
