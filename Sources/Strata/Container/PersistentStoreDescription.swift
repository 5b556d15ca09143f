import Foundation

/// How a ``PersistentContainer`` or a coordinator opens one store: its type, file,
/// configuration and options.
///
/// Each store module describes its stores with typed options, such as
/// `PersistentStoreDescription.sqlite(at:configuration:options:)` in StrataSQLite; a
/// third-party type is named, and takes string ``settings``:
///
/// ```swift
/// var description = PersistentStoreDescription.sqlite(at: url, options: SQLiteStoreOptions(poolSize: 4))
/// description.isReadOnly = true
/// container.persistentStoreDescriptions = [description, PersistentStoreDescription(type: "CSV", url: csv)]
/// try coordinator.addStore(.inMemory(configuration: "Cache"))
/// ```
public struct PersistentStoreDescription: Sendable, Hashable, CustomStringConvertible {
    /// The store type's name: the type the store is opened with when the description holds
    /// none (``storeType``), looked up among the coordinator's registered types.
    public var type: String
    /// The store type the description was made with, with its typed options; `nil` for a
    /// description made by name. It is used while its name is ``type``.
    public private(set) var storeType: StoreType?
    /// The store's file; `nil` for a store without one.
    public var url: URL?
    /// The model configuration the store holds; `nil` for every entity.
    public var configuration: String?
    /// Whether saves to the store are refused.
    public var isReadOnly = false
    /// How long, in seconds, a store waits for a lock held by another connection before it
    /// gives up; `nil` for the store's default. SQLite stores honour it when their typed
    /// options leave it unset.
    public var timeout: TimeInterval?
    /// How many read connections the store keeps; `nil` for the store's default. SQLite stores
    /// honour it when their typed options leave it unset.
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
    /// Whether the store records every save in its persistent history
    /// (``StoreOptions/tracksPersistentHistory``), as Core Data's `NSPersistentHistoryTrackingKey`.
    public var tracksPersistentHistory = false
    /// Whether the coordinator announces saves other coordinators and processes make to the
    /// store (``StoreOptions/postsRemoteChangeNotifications``), as Core Data's
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`; it needs
    /// ``tracksPersistentHistory``.
    public var postsRemoteChangeNotifications = false

    /// Describes a store of the type named `type` at `url`, holding `configuration`.
    public init(type: String, url: URL? = nil, configuration: String? = nil) {
        self.type = type
        self.url = url
        self.configuration = configuration
    }

    /// Describes a store of `storeType` (with the options it was made with) at `url`, holding
    /// `configuration`.
    public init(storeType: StoreType, url: URL? = nil, configuration: String? = nil) {
        self.init(type: storeType.name, url: url, configuration: configuration)
        self.storeType = storeType
    }

    /// The options the store is opened with: ``settings`` plus `busyTimeout` (milliseconds)
    /// and `poolSize` when ``timeout`` and ``poolSize`` are set.
    public var storeOptions: StoreOptions {
        var settings = settings
        if let timeout { settings["busyTimeout"] = String(Int((timeout * 1000).rounded())) }
        if let poolSize { settings["poolSize"] = String(poolSize) }
        return StoreOptions(
            isReadOnly: isReadOnly, settings: settings, tracksPersistentHistory: tracksPersistentHistory,
            postsRemoteChangeNotifications: postsRemoteChangeNotifications)
    }

    /// The type and where the store is, for messages.
    public var description: String {
        "\(type) store" + (url.map { " at '\($0.nameInMessages)'" } ?? "") + (configuration.map { " (\($0))" } ?? "")
    }

    /// A description of an in-memory store holding `configuration`.
    public static func inMemory(configuration: String? = nil) -> PersistentStoreDescription {
        PersistentStoreDescription(storeType: .inMemory, configuration: configuration)
    }
}
