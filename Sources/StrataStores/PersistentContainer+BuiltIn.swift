import Foundation
import Logging
import Strata
import StrataSQLite

extension PersistentContainer {
    /// Creates a container for `model` that knows every built-in store type, with one SQLite
    /// store named after the container (`name.sqlite`) in `directory`, logging to `logger` and
    /// watched by `observer` (`StrataTelemetry`'s `MetricsAndTracing`, say).
    ///
    /// ```swift
    /// let container = try PersistentContainer(name: "Guidebook", model: model)
    /// try await container.loadPersistentStores()
    /// ```
    ///
    /// - Throws: `ModelError` when the model is invalid.
    public convenience init(
        name: String, model: ManagedObjectModel, directory: URL = PersistentContainer.defaultDirectoryURL(),
        logger: Logger = PersistentStoreCoordinator.silentLogger, observer: (any OperationObserver)? = nil
    ) throws {
        try self.init(
            name: name, model: model, storeTypes: StoreType.builtInFileTypes,
            defaultStoreType: StoreType.sqlite.name, directory: directory, logger: logger, observer: observer)
    }
}
