import Strata

/// The entities sync keeps in a store beside an application's own: a hub's log and merged
/// objects, a replica's merged objects, its place in the hub's log and its pushes not yet
/// acknowledged. Their names begin with `StrataSync`, which an application's model must not use.
public enum SyncModel {
    /// A hub's model: its log and its merged objects.
    public static func hubModel() -> ManagedObjectModel {
        ManagedObjectModel(entities: [logEntry, mergedObject])
    }

    /// `model` with the entities a replica keeps its sync state in, in its default configuration:
    /// add the replica's store with this model so that what the engine writes is saved in the
    /// same transaction as the objects it writes.
    ///
    /// - Throws: `ModelError` with code `incompatibleModels` when `model`
    ///   declares an entity with one of their names.
    public static func replicaModel(for model: ManagedObjectModel) throws(ModelError) -> ManagedObjectModel {
        try ManagedObjectModel(merging: [model, ManagedObjectModel(entities: [mergedObject, replica, pendingPush])])
    }

    /// Whether `entityName` is one of the entities sync keeps its state in.
    public static func isSyncEntity(_ entityName: String) -> Bool { entityName.hasPrefix("StrataSync") }

    static let logEntryName = "StrataSyncLogEntry"
    static let mergedObjectName = "StrataSyncObject"
    static let replicaName = "StrataSyncReplica"
    static let pendingPushName = "StrataSyncPendingPush"

    /// One push the hub took: its place in the log, its ID, the replica that sent it and its
    /// operations in sync's binary form.
    static var logEntry: EntityDescription {
        EntityDescription(logEntryName) {
            AttributeDescription("sequence", .integer64, optional: false).indexed()
            AttributeDescription("push", .uuid, optional: false).indexed()
            AttributeDescription("replica", .uuid, optional: false)
            AttributeDescription("operations", .binary, optional: false)
            // A second process writing the hub by mistake fails its save instead of reusing a
            // sequence number.
            UniquenessConstraint("sequence")
            UniquenessConstraint("push")
        }
    }

    /// One object's merged state in sync's binary form, with the store object it names on a
    /// replica.
    static var mergedObject: EntityDescription {
        EntityDescription(mergedObjectName) {
            AttributeDescription("globalID", .uuid, optional: false).indexed()
            AttributeDescription("object", .objectID)
            AttributeDescription("state", .binary, optional: false)
        }
    }

    /// A replica's ID, its clock's last timestamp, its place in the hub's log and in its own
    /// stores' history.
    static var replica: EntityDescription {
        EntityDescription(replicaName) {
            AttributeDescription("replica", .uuid, optional: false)
            AttributeDescription("cursor", .integer64, optional: false, default: .integer64(0))
            AttributeDescription("clock", .binary)
            AttributeDescription("historyTokens", .binary)
        }
    }

    /// A push made but not yet acknowledged by the hub, sent again under its ID until it is.
    static var pendingPush: EntityDescription {
        EntityDescription(pendingPushName) {
            AttributeDescription("push", .uuid, optional: false)
            AttributeDescription("order", .integer64, optional: false)
            AttributeDescription("operations", .binary, optional: false)
        }
    }
}
