import Foundation

/// The built-in store that keeps objects in memory only: for tests, caches, and as the
/// reference every other store is compared with.
public enum InMemoryStore {
    /// The store's type name.
    public static let typeName = "InMemory"

    /// Opens a new, empty in-memory store for the entities of `configuration` of `model`.
    ///
    /// - Throws: ``ModelError`` when the model is invalid.
    public static func open(
        model: ManagedObjectModel, configuration: String? = nil, options: StoreOptions = StoreOptions()
    ) throws -> any IncrementalStore {
        try MemoryFile().incrementalStore(model: model, configuration: configuration, options: options)
    }

    /// A "file" that does not exist: nothing to load, nothing to write.
    private struct MemoryFile: AtomicStore {
        var typeName: String { InMemoryStore.typeName }
        var url: URL? { nil }
        var capabilities: StoreCapabilities { [.concurrentReaders] }
        func load() throws -> AtomicStoreContents? { nil }
        func write(_ contents: AtomicStoreContents) throws {}
    }
}
