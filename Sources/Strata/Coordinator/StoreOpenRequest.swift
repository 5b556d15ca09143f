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
    /// What the store tells of its events (``ObservedEvent/connectionWait(storeType:seconds:)``):
    /// the coordinator's observer; `nil` when nothing watches.
    public var observer: (any OperationObserver)?

    /// Creates a request.
    public init(
        model: ManagedObjectModel, configurationName: String? = nil, url: URL? = nil,
        options: StoreOptions = StoreOptions(), identifierForNewStore: String = UUID().uuidString,
        userInfoForNewStore: [String: AttributeValue] = [:],
        logger: Logger = PersistentStoreCoordinator.silentLogger, observer: (any OperationObserver)? = nil
    ) {
        self.model = model
        self.configurationName = configurationName
        self.url = url
        self.options = options
        self.identifierForNewStore = identifierForNewStore
        self.userInfoForNewStore = userInfoForNewStore
        self.logger = logger
        self.observer = observer
    }

    /// What a store of type `storeType` calls after waiting `seconds` for a connection of its
    /// pool; `nil` when nothing watches.
    public func connectionWaitRecorder(storeType: String) -> (@Sendable (_ seconds: Double) -> Void)? {
        guard let observer else { return nil }
        return { seconds in
            if observer.isObserving { observer.record(.connectionWait(storeType: storeType, seconds: seconds)) }
        }
    }
}
