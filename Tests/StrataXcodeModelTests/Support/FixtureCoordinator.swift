import Strata
import StrataSQLite

extension PersistentStoreCoordinator {
    /// An SQLite coordinator for the model of an Apple fixture, whose transformable attributes
    /// keep their stored data: the fixtures' apps registered transformers of their own.
    static func fixture(_ model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
        var transformers = ValueTransformerRegistry()
        transformers.registerStoredDataTransformers(for: model)
        return try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite], valueTransformers: transformers)
    }
}
