/// The keys of one uniqueness constraint as stores enforce it: no two objects of the declaring entity and
/// its sub-entities may hold the same values of its keys. An object with `null` for any key
/// clashes with nothing, as in SQL's unique indexes.
public struct UniqueKeys: Sendable, Hashable {
    /// The entity that declares the constraint.
    public let entityName: String
    /// The attributes and to-one relationships whose values together must be unique.
    public let keys: [String]
    /// The declaring entity and every entity below it: the objects the constraint spans.
    public let entityNames: [String]

    /// The predicate matching the objects whose keys hold `values`, in ``keys`` order.
    public func predicate(matching values: [AttributeValue]) -> FetchPredicate {
        let parts = zip(keys, values).map { key, value in
            FetchPredicate.comparison(ComparisonPredicate(.keyPath(key), .equalTo, .constant(value)))
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// The values of ``keys`` in `values`; `nil` when any is missing or `null`.
    public func values(in values: PropertyValues) -> [AttributeValue]? {
        var found: [AttributeValue] = []
        for key in keys {
            guard let value = values[key], !value.isNull else { return nil }
            found.append(value)
        }
        return found
    }

}

/// Objects a save would leave holding the same values of a uniqueness constraint's keys.
public struct ConstraintConflict: Sendable, Hashable {
    /// The constraint.
    public var constraint: UniqueKeys
    /// The values the objects share, in the constraint's key order.
    public var values: [AttributeValue]
    /// The objects of the save that hold the values, in the change set's order (inserts first).
    public var objectIDs: [ObjectID]
    /// The saved object, not changed by the save, that already holds the values; `nil` when
    /// only objects of the save clash.
    public var storedObjectID: ObjectID?

    /// Creates a conflict record.
    public init(
        constraint: UniqueKeys, values: [AttributeValue], objectIDs: [ObjectID],
        storedObjectID: ObjectID?
    ) {
        self.constraint = constraint
        self.values = values
        self.objectIDs = objectIDs
        self.storedObjectID = storedObjectID
    }

    /// How messages name the conflict.
    var summary: String {
        let pairs = zip(constraint.keys, values).map { "\($0) = \($1)" }.joined(separator: ", ")
        let objects = objectIDs.map(\.description) + (storedObjectID.map { ["the saved \($0)"] } ?? [])
        return "'\(constraint.entityName)' (\(pairs)) held by \(objects.joined(separator: " and "))"
    }
}

/// The saved holders of uniqueness-constraint values, for a store without an index on the
/// keys: one pass over each constraint's saved objects per save, kept for the save's other
/// lookups. Build one inside the write transaction and answer
/// ``StoreChangeSet/checkUniqueness(schema:storeName:storedMatches:)`` with ``matches(_:_:)``.
public struct UniqueValuesScan {
    private let savedObjects: (UniqueKeys) throws -> [Snapshot]
    private var holders: [UniqueKeys: [[AttributeValue]: [ObjectID]]] = [:]

    /// A scan reading the saved objects of a constraint's entities with `savedObjects`.
    public init(savedObjects: @escaping (UniqueKeys) throws -> [Snapshot]) {
        self.savedObjects = savedObjects
    }

    /// The saved objects whose `keys` hold `values`; the first call for a constraint reads its
    /// saved objects.
    public mutating func matches(_ keys: UniqueKeys, _ values: [AttributeValue]) throws -> [ObjectID] {
        if let known = holders[keys] { return known[values] ?? [] }
        var found: [[AttributeValue]: [ObjectID]] = [:]
        for snapshot in try savedObjects(keys) {
            guard let held = keys.values(in: snapshot.values) else { continue }
            found[held, default: []].append(snapshot.objectID)
        }
        holders[keys] = found
        return found[values] ?? []
    }
}

extension ModelSchema {
    /// The uniqueness constraints objects of `entityName` are bound by: those of the entity and
    /// of its superentities, nearest last.
    public func uniqueKeys(of entityName: String) -> [UniqueKeys] {
        guard let entity = entitiesByName[entityName] else { return [] }
        return (entity.superentityNames.reversed() + [entityName]).compactMap { entitiesByName[$0] }.flatMap(
            Self.declaredUniqueKeys)
    }

    /// The uniqueness constraints `entity` itself declares.
    static func declaredUniqueKeys(of entity: EntitySchema) -> [UniqueKeys] {
        entity.description.uniquenessConstraints.filter { !$0.isEmpty }.map { keys in
            UniqueKeys(entityName: entity.name, keys: keys, entityNames: [entity.name] + entity.descendantNames)
        }
    }
}

extension StoreChangeSet {
    /// Throws ``StoreError/Code/constraintConflict`` listing every set of values of a
    /// uniqueness constraint that the change set would leave to more than one object: two of
    /// its inserted or updated objects, or one of them and a saved object the change set
    /// neither updates nor deletes. A store calls it inside its write transaction, before it
    /// writes, so that no other writer can slip in between.
    ///
    /// - Parameters:
    ///   - schema: The model's schema.
    ///   - storeName: How messages name the store.
    ///   - storedMatches: The saved objects of the constraint's entities whose keys hold the
    ///     values (the store evaluates ``UniqueKeys/predicate(matching:)``, with an
    ///     index where it has one). Asked only for values an insert, or an update changing one
    ///     of the keys, brings.
    public func checkUniqueness(
        schema: ModelSchema, storeName: String,
        storedMatches: (UniqueKeys, [AttributeValue]) throws -> [ObjectID]
    ) throws {
        let changes = inserted.map { ($0, true) } + updated.map { ($0, false) }
        guard !changes.isEmpty else { return }
        let constraints = schema.uniqueKeys
        guard !constraints.isEmpty else { return }
        let replaced = Set(updated.map(\.objectID)).union(deleted.map(\.objectID))
        var conflicts: [ConstraintConflict] = []
        for constraint in constraints {
            let spanned = Set(constraint.entityNames)
            var groups: [[AttributeValue]: (objects: [ObjectID], needsLookup: Bool)] = [:]
            var order: [[AttributeValue]] = []
            for (change, isInsert) in changes where spanned.contains(change.objectID.entityName) {
                guard let values = constraint.values(in: change.values) else { continue }
                let bringsValues =
                    isInsert || change.changedKeys.map { !$0.isDisjoint(with: constraint.keys) } ?? true
                if groups[values] == nil { order.append(values) }
                groups[values, default: ([], false)].objects.append(change.objectID)
                if bringsValues { groups[values]?.needsLookup = true }
            }
            for values in order {
                guard let group = groups[values] else { continue }
                let stored =
                    group.needsLookup
                    ? try storedMatches(constraint, values).first { !replaced.contains($0) } : nil
                guard group.objects.count > 1 || stored != nil else { continue }
                conflicts.append(
                    ConstraintConflict(
                        constraint: constraint, values: values, objectIDs: group.objects, storedObjectID: stored))
            }
        }
        guard !conflicts.isEmpty else { return }
        throw StoreError(
            code: .constraintConflict,
            message: "\(storeName) refused the save: uniqueness constraints would be broken by "
                + conflicts.map(\.summary).joined(separator: "; ") + ".",
            constraintConflicts: conflicts)
    }
}
