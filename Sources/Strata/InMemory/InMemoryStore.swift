import Foundation

/// The built-in store that keeps objects in memory only: for tests, caches, and as the
/// reference every other store is compared with.
public enum InMemoryStore {
    /// The store's type name.
    static let typeName = "InMemory"

    /// Opens a new, empty in-memory store for the entities of `configuration` of `model`.
    ///
    /// - Throws: ``ModelError`` when the model is invalid.
    public static func open(
        model: ManagedObjectModel, configuration: String? = nil, options: StoreOptions = StoreOptions()
    ) throws -> any IncrementalStore {
        try open(StoreOpenRequest(model: model, configurationName: configuration, options: options))
    }

    /// Opens a new, empty in-memory store as `request` asks. The request's URL, if any, only
    /// names the store (for ``PersistentStoreCoordinator/store(at:)``); nothing is written there.
    public static func open(_ request: StoreOpenRequest) throws -> any IncrementalStore {
        try AtomicStoreAdapter(store: MemoryFile(url: request.url), request: request, writesNothing: true)
    }

    /// A "file" that does not exist: nothing to load, nothing to write.
    private struct MemoryFile: AtomicStore {
        let url: URL?
        var typeName: String { InMemoryStore.typeName }
        var capabilities: StoreCapabilities { [.crossStoreRelationships] }
        var locksFile: Bool { false }
        func load() throws -> AtomicStoreContents? { nil }
        func write(_ contents: AtomicStoreContents) throws {}
    }
}

extension StoreType {
    /// The built-in in-memory store type: no file, so there is no metadata to read or write and
    /// nothing to destroy.
    public static let inMemory = StoreType(
        name: InMemoryStore.typeName, open: { try InMemoryStore.open($0) }, readMetadata: { _ in nil },
        writeMetadata: { _, url in
            throw StoreError(
                code: .unsupported, message: "An in-memory store has no file at '\(url.path)' to write metadata to.")
        }, destroy: { _ in })
}
