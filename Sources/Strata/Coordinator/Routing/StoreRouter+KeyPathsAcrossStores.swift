/// Key paths through relationships that lead to another store's entity (cross-store
/// relationships, docs/CROSS-STORE-RELATIONSHIPS.md). A store cannot follow them: it holds only
/// the other objects' IDs. A comparison through one is answered in two steps: the IDs of the
/// destination objects that match, from their stores, then a membership test on the
/// relationship in the fetched entity's store. A sort through one is done in memory, after the
/// destinations are loaded in one batch per store.
extension StoreRouter {
    /// `keyPath` split where it leaves `stores`, when keys follow the relationship leading out
    /// (not a collection operator such as `@count`, which the store answers from the members it
    /// keeps) and it gets there through to-one relationships only, or, when
    /// `anyThroughToMany` (an `ANY` comparison), through to-many ones too up to a to-one
    /// relationship leading out: see ``stepAcrossStores(in:of:in:)``.
    func keyPathAcrossStores(
        _ keyPath: String, of entity: EntitySchema, in stores: [any IncrementalStore], anyThroughToMany: Bool = false
    ) -> (path: String, relationship: RelationshipDescription, rest: String, throughToMany: Bool)? {
        guard let step = stepAcrossStores(in: keyPath, of: entity, in: stores),
            !step.throughToMany || (anyThroughToMany && !step.relationship.isToMany),
            !step.rest.isEmpty, !step.rest.hasPrefix("@")
        else { return nil }
        return step
    }

    /// The first relationship along `keyPath` from `entity` that leads to an entity none of
    /// `stores` holds, reached through relationships within them (`city` in `city.name`, in
    /// `trip.city.name` and in `trips.city.name`): the key path up to and including it, the
    /// relationship, the keys after it (empty when it ends the key path), and whether a to-many
    /// relationship comes before it.
    private func stepAcrossStores(
        in keyPath: String, of entity: EntitySchema, in stores: [any IncrementalStore]
    ) -> (path: String, relationship: RelationshipDescription, rest: String, throughToMany: Bool)? {
        let keys = keyPath.split(separator: ".").map(String.init)
        var current = entity
        var throughToMany = false
        for (index, key) in keys.enumerated() {
            if let relationship = relationshipAcrossStores(named: key, of: current, in: stores) {
                let path = keys[...index].joined(separator: ".")
                return (path, relationship, keys[(index + 1)...].joined(separator: "."), throughToMany)
            }
            guard let next = current.relationshipsByName[key],
                let destination = coordinator.schema.entitiesByName[next.destinationEntityName]
            else { return nil }
            throughToMany = throughToMany || next.isToMany
            current = destination
        }
        return nil
    }

    /// The relationship `name` of `entity` when it leads to an entity that none of `stores`
    /// holds.
    private func relationshipAcrossStores(
        named name: String, of entity: EntitySchema, in stores: [any IncrementalStore]
    ) -> RelationshipDescription? {
        guard let relationship = entity.relationshipsByName[name], !relationship.isTransient,
            !stores.contains(where: { coordinator.holds($0, entityName: relationship.destinationEntityName) })
        else { return nil }
        return relationship
    }

    /// `predicate` with every comparison through a relationship across stores replaced by a
    /// membership test on the relationship, the destinations that match given by
    /// `destinations`.
    ///
    /// - Throws: ``ContextError/Code/invalidRequest`` for such a comparison with anything but
    ///   constants; what `destinations` throws.
    func resolvingAcrossStores(
        _ predicate: FetchPredicate, of entity: EntitySchema, in stores: [any IncrementalStore],
        includingPendingChanges pending: Bool, destinations: (FetchRequest<ManagedObject>) throws -> [ObjectID]
    ) throws -> FetchPredicate {
        func resolving(_ part: FetchPredicate) throws -> FetchPredicate {
            try resolvingAcrossStores(
                part, of: entity, in: stores, includingPendingChanges: pending, destinations: destinations)
        }
        switch predicate {
        case .constant: return predicate
        case .and(let parts): return .and(try parts.map(resolving))
        case .or(let parts): return .or(try parts.map(resolving))
        case .not(let inner): return .not(try resolving(inner))
        case .comparison(let comparison):
            guard case .keyPath(let keyPath) = comparison.left,
                let (path, relationship, rest, throughToMany) = keyPathAcrossStores(
                    keyPath, of: entity, in: stores, anyThroughToMany: comparison.modifier == .any)
            else { return predicate }
            guard Self.isConstant(comparison.right) else {
                throw ContextError(
                    code: .invalidRequest,
                    message: "'\(keyPath)' of '\(entity.name)' leads to another store through '\(relationship.name)': "
                        + "it can only be compared with constants, not with \(comparison.right).")
            }
            // Through a to-many relationship of the store, the membership test is an ANY over
            // the destinations reached (`ANY trips.city IN {…}`).
            let overMany = relationship.isToMany || throughToMany
            var destinationTest = comparison
            destinationTest.left = .keyPath(rest)
            if overMany { destinationTest.modifier = .direct }
            // ALL members match when no member fails to.
            let every = relationship.isToMany && comparison.modifier == .all
            var matching = FetchRequest<ManagedObject>(entityName: relationship.destinationEntityName)
            matching.predicate = every ? .not(.comparison(destinationTest)) : .comparison(destinationTest)
            matching.includesPendingChanges = pending
            let ids = try destinations(matching)
            let membership = FetchPredicate.comparison(
                ComparisonPredicate(
                    .keyPath(path), .in, .aggregate(ids.map { .constant(.objectID($0)) }),
                    modifier: overMany ? .any : .direct))
            if every { return .not(membership) }
            // An empty to-one reads every key as nil, as within one store: it matches when the
            // test holds for an object whose values are all nil.
            let nothing = ForeignObjectReference(.temporary(entityName: relationship.destinationEntityName))
            guard !relationship.isToMany,
                (try? FetchEvaluation().holds(.comparison(destinationTest), for: nothing)) == true
            else { return membership }
            let empty = FetchPredicate.comparison(
                ComparisonPredicate(
                    .keyPath(path), .equalTo, .constant(.null), modifier: throughToMany ? .any : .direct))
            return .or([membership, empty])
        }
    }

    /// Refuses a key path through a relationship across stores that the rewrite left: no
    /// store can follow it, and answering it as nil would be wrong.
    func refuseKeyPathsAcrossStores(
        in predicate: FetchPredicate, of entity: EntitySchema, in stores: [any IncrementalStore]
    ) throws {
        let collections = Self.subqueryCollections(in: predicate)
        for keyPath in predicate.keyPaths {
            guard let step = stepAcrossStores(in: keyPath, of: entity, in: stores),
                collections.contains(keyPath) || (!step.rest.isEmpty && !step.rest.hasPrefix("@"))
            else { continue }
            let place = "'\(keyPath)' of '\(entity.name)' leads to another store through '\(step.relationship.name)'"
            throw ContextError(
                code: .invalidRequest,
                message: step.throughToMany
                    ? "\(place) after a to-many relationship: a key path across stores through to-many relationships "
                        + "can only be answered with ANY, up to a to-one relationship leading out (or compare "
                        + "'\(step.path)' with objects instead)."
                    : "\(place): it can only be compared, on the left, with constants (as in '\(step.path).key == value')."
            )
        }
    }

    /// The key paths `SUBQUERY`s of `predicate` range over.
    private static func subqueryCollections(in predicate: FetchPredicate) -> Set<String> {
        func collections(_ expression: FetchExpression) -> [String] {
            switch expression {
            case .subquery(let collection, _, let inner):
                collection.keyPaths + Array(subqueryCollections(in: inner))
            case .keyPathOn(let base, _): collections(base)
            case .aggregate(let elements), .function(_, let elements): elements.flatMap(collections)
            case .conditional(let condition, let then, let otherwise):
                Array(subqueryCollections(in: condition)) + collections(then) + collections(otherwise)
            case .evaluatedObject, .constant, .variable, .keyPath: []
            }
        }
        switch predicate {
        case .constant: return []
        case .comparison(let comparison): return Set(collections(comparison.left) + collections(comparison.right))
        case .and(let parts), .or(let parts): return Set(parts.flatMap { subqueryCollections(in: $0) })
        case .not(let inner): return subqueryCollections(in: inner)
        }
    }

    private static func isConstant(_ expression: FetchExpression) -> Bool {
        switch expression {
        case .constant: true
        case .aggregate(let elements): elements.allSatisfy(isConstant)
        default: false
        }
    }
}
