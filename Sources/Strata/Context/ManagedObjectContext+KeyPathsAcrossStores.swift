/// Key paths through relationships that lead to another store's entity (cross-store
/// relationships, docs/CROSS-STORE-RELATIONSHIPS.md). A store cannot follow them: it holds only
/// the other objects' IDs. A comparison through one is answered in two steps: the IDs of the
/// destination objects that match, from their stores, then a membership test on the
/// relationship in the fetched entity's store. A sort through one is done in memory, after the
/// destinations are loaded in one batch per store.
extension ManagedObjectContext {
    /// `request` with every comparison through a relationship across stores replaced by a
    /// membership test on the relationship; `sortsAcrossStores` set when a sort goes through one.
    ///
    /// - Throws: ``ContextError/Code/invalidRequest`` for a comparison across stores whose other
    ///   side is not a constant; what fetching the destinations throws.
    func resolvingKeyPathsAcrossStores<Result>(_ request: FetchRequest<Result>) throws -> FetchRequest<Result> {
        guard parentStore == nil, coordinator.stores.count > 1 else { return request }
        let entity = try entitySchema(named: request.entityName)
        let stores = sources(forEntity: request.entityName)
        var resolved = request
        if let predicate = request.predicate {
            resolved.predicate = try resolvingAcrossStores(predicate, of: entity, in: stores)
        }
        resolved.sortsAcrossStores = request.sortDescriptors.contains { descriptor in
            relationshipAcrossStores(atStartOf: descriptor.keyPath, of: entity, in: stores) != nil
        }
        return resolved
    }

    /// The first key of `keyPath` when it is a relationship of `entity` leading to an entity
    /// that none of `stores` holds, and more keys follow it (not a collection operator such as
    /// `@count`, which the store answers from the members it keeps).
    private func relationshipAcrossStores(
        atStartOf keyPath: String, of entity: EntitySchema, in stores: [any IncrementalStore]
    ) -> (relationship: RelationshipDescription, rest: String)? {
        let keys = keyPath.split(separator: ".", maxSplits: 1)
        guard keys.count == 2, !keys[1].hasPrefix("@"), let relationship = entity.relationshipsByName[String(keys[0])],
            !relationship.isTransient,
            !stores.contains(where: { coordinator.holds($0, entityName: relationship.destinationEntityName) })
        else { return nil }
        return (relationship, String(keys[1]))
    }

    private func resolvingAcrossStores(
        _ predicate: FetchPredicate, of entity: EntitySchema, in stores: [any IncrementalStore]
    ) throws -> FetchPredicate {
        switch predicate {
        case .constant: return predicate
        case .and(let parts): return .and(try parts.map { try resolvingAcrossStores($0, of: entity, in: stores) })
        case .or(let parts): return .or(try parts.map { try resolvingAcrossStores($0, of: entity, in: stores) })
        case .not(let inner): return .not(try resolvingAcrossStores(inner, of: entity, in: stores))
        case .comparison(let comparison):
            guard case .keyPath(let keyPath) = comparison.left,
                let (relationship, rest) = relationshipAcrossStores(atStartOf: keyPath, of: entity, in: stores)
            else { return predicate }
            guard Self.isConstant(comparison.right) else {
                throw ContextError(
                    code: .invalidRequest,
                    message: "'\(keyPath)' of '\(entity.name)' leads to another store through '\(relationship.name)': "
                        + "it can only be compared with constants, not with \(comparison.right).")
            }
            var destinationTest = comparison
            destinationTest.left = .keyPath(rest)
            if relationship.isToMany { destinationTest.modifier = .direct }
            // ALL members match when no member fails to.
            let every = relationship.isToMany && comparison.modifier == .all
            var destinations = FetchRequest<ManagedObject>(entityName: relationship.destinationEntityName)
            destinations.predicate = every ? .not(.comparison(destinationTest)) : .comparison(destinationTest)
            let ids = try matchingObjectIDs(destinations, loadingSnapshots: false)
            let membership = FetchPredicate.comparison(
                ComparisonPredicate(
                    .keyPath(relationship.name), .in, .aggregate(ids.map { .constant(.objectID($0)) }),
                    modifier: relationship.isToMany ? .any : .direct))
            return every ? .not(membership) : membership
        }
    }

    private static func isConstant(_ expression: FetchExpression) -> Bool {
        switch expression {
        case .constant: true
        case .aggregate(let elements): elements.allSatisfy(isConstant)
        default: false
        }
    }

    /// Loads, in one batch per store, the first object along each sort key path of `request`
    /// that leads across stores, for `objects`: the in-memory sort then reads them without
    /// a store read each.
    func prefetchSortDestinations<Result>(of request: FetchRequest<Result>, for objects: [ManagedObject]) throws {
        guard request.sortsAcrossStores else { return }
        let entity = try entitySchema(named: request.entityName)
        let stores = sources(forEntity: request.entityName)
        let relationships = request.sortDescriptors.compactMap { descriptor in
            relationshipAcrossStores(atStartOf: descriptor.keyPath, of: entity, in: stores)?.relationship.name
        }
        try prefetch(relationships, from: objects.filter { !$0.objectID.isTemporary }.map(\.objectID))
    }
}
