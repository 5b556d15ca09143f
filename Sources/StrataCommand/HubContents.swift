import Strata
import StrataSync

/// The application's objects a sync hub's store resolves: what `strata dump` prints for a hub
/// given the application's model, to be set against a replica's dump.
enum HubContents {
    /// Whether `file` is a sync hub's store: it records the hub's entities.
    static func isHub(_ file: StoreFile) -> Bool {
        Set(file.metadata.versionHashes.keys).isSuperset(of: SyncModel.hubModel().entities.map(\.name))
    }

    /// An in-memory store of `model` holding every object the hub in `file` resolves, under the
    /// uniqueness constraints and required relationships of `model` (the rules replicas
    /// apply, with deletions winning), with the coordinator that keeps it.
    static func shown(_ file: StoreFile, model: ManagedObjectModel) async throws
        -> (PersistentStoreCoordinator, any IncrementalStore)
    {
        let hubCoordinator = try PersistentStoreCoordinator(
            model: SyncModel.hubModel(), storeTypes: StoreFile.storeTypes)
        _ = try file.open(in: hubCoordinator)
        let coordinator = try StoreFile.coordinator(for: model)
        let hub = try StoreHub(coordinator: hubCoordinator, rules: MergeRules().constrained(by: coordinator.schema))
        let store = try await coordinator.addStore(type: StoreType.inMemory.name)
        try await hub.show(in: ManagedObjectContext(coordinator: coordinator, name: "strata dump"))
        return (coordinator, store)
    }
}
