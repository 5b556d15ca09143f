import Foundation

/// How a ``PersistentContainer`` opens one store: its type, file, configuration and options.
///
/// ```swift
/// var description = PersistentStoreDescription(type: "SQLite", url: url)
/// description.isReadOnly = true
/// description.timeout = 5
/// container.persistentStoreDescriptions = [description]
/// ```
public struct PersistentStoreDescription: Sendable, Hashable, CustomStringConvertible {
    /// The store type's name, as registered with the container's coordinator.
    public var type: String
    /// The store's file; `nil` for a store without one.
    public var url: URL?
    /// The model configuration the store holds; `nil` for every entity.
    public var configuration: String?
    /// Whether saves to the store are refused.
    public var isReadOnly = false
    /// How long, in seconds, a store waits for a lock held by another connection before it
    /// gives up; `nil` for the store's default. SQLite stores honour it.
    public var timeout: TimeInterval?
    /// How many read connections the store keeps; `nil` for the store's default. SQLite stores
    /// honour it.
    public var poolSize: Int?
    /// Whether a store written with an older model version may be migrated when it is loaded.
    public var shouldMigrateStoreAutomatically = true
    /// Whether a migration may infer how the old model maps onto the new one.
    public var shouldInferMappingModelAutomatically = true
    /// Whether ``PersistentContainer/loadPersistentStores(completionHandler:)`` opens this store
    /// off the caller's thread and reports it later.
    public var shouldAddStoreAsynchronously = false
    /// Store-specific settings passed as they are (see each store type's documentation).
    public var settings: [String: String] = [:]

    /// Describes a store of `type` at `url`, holding `configuration`.
    public init(type: String, url: URL? = nil, configuration: String? = nil) {
        self.type = type
        self.url = url
        self.configuration = configuration
    }

    /// The options the store is opened with: ``settings`` plus `busyTimeout` (milliseconds)
    /// and `poolSize` when ``timeout`` and ``poolSize`` are set.
    public var storeOptions: StoreOptions {
        var settings = settings
        if let timeout { settings["busyTimeout"] = String(Int((timeout * 1000).rounded())) }
        if let poolSize { settings["poolSize"] = String(poolSize) }
        return StoreOptions(isReadOnly: isReadOnly, settings: settings)
    }

    /// The type and where the store is, for messages.
    public var description: String {
        "\(type) store" + (url.map { " at '\($0.path)'" } ?? "") + (configuration.map { " (\($0))" } ?? "")
    }

    /// A description of an in-memory store holding `configuration`.
    public static func inMemory(configuration: String? = nil) -> PersistentStoreDescription {
        PersistentStoreDescription(type: InMemoryStore.typeName, configuration: configuration)
    }
}
