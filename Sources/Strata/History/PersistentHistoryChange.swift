/// One object's change in a persistent history transaction.
public struct PersistentHistoryChange: Sendable, Hashable {
    /// What happened to the object.
    public enum ChangeType: Int, Sendable, Hashable, Codable, CaseIterable {
        /// The object was inserted.
        case insert = 0
        /// Some of the object's properties changed.
        case update = 1
        /// The object was deleted.
        case delete = 2
    }

    /// The change's number in its store's history, larger for each later change.
    public var changeIdentifier: Int64
    /// The object that changed.
    public var changedObjectID: ObjectID
    /// What happened to it.
    public var changeType: ChangeType
    /// For an update, the names of the attributes and relationships it changed.
    public var updatedProperties: Set<String>?
    /// For a deletion, the values of the entity's attributes marked
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``, by name.
    public var tombstone: [String: AttributeValue]?
    /// The token of the transaction the change belongs to.
    public var transactionToken: PersistentHistoryToken

    /// Creates a change record.
    public init(
        changeIdentifier: Int64, changedObjectID: ObjectID, changeType: ChangeType,
        updatedProperties: Set<String>? = nil, tombstone: [String: AttributeValue]? = nil,
        transactionToken: PersistentHistoryToken
    ) {
        self.changeIdentifier = changeIdentifier
        self.changedObjectID = changedObjectID
        self.changeType = changeType
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
        self.transactionToken = transactionToken
    }
}
