import Foundation
import Logging

/// Everything a store type needs to open (or create) one store.
public struct StoreOpenRequest: Sendable {
    /// The model, frozen.
    public var model: ManagedObjectModel
    /// The configuration whose entities the store holds; `nil` for every entity.
    public var configurationName: String?
    /// The store's file; `nil` for a store without one.
    public var url: URL?
    /// How the store is opened.
    public var options: StoreOptions
    /// The identifier a *new* store takes: a fresh UUID unless the caller gives one. An existing
    /// store keeps its own. Migration passes the old store's, so that a store keeps its identity
    /// when it moves.
    public var identifierForNewStore: String
    /// The application metadata keys a *new* store starts with.
    public var userInfoForNewStore: [String: AttributeValue]
    /// Where the store logs what is worth an application's attention (slow statements, a map
    /// that grew): the coordinator's logger; a store keeps it rather than a static one.
    public var logger: Logger

    /// Creates a request.
    public init(
        model: ManagedObjectModel, configurationName: String? = nil, url: URL? = nil,
        options: StoreOptions = StoreOptions(), identifierForNewStore: String = UUID().uuidString,
        userInfoForNewStore: [String: AttributeValue] = [:],
        logger: Logger = PersistentStoreCoordinator.silentLogger
    ) {
        self.model = model
        self.configurationName = configurationName
        self.url = url
        self.options = options
        self.identifierForNewStore = identifierForNewStore
        self.userInfoForNewStore = userInfoForNewStore
        self.logger = logger
    }
}
