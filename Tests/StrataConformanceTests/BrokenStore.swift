import Foundation

@testable import Strata

/// A store with one deliberate defect, built on the in-memory store: a negative control that
/// the conformance suite must catch.
final class BrokenStore: IncrementalStore {
    /// What is wrong with the store.
    enum Defect: String, CaseIterable, Sendable {
        /// Dates lose everything below a second when saved.
        case dropsSubSecondDates
        /// Doubles and floats lose the sign of zero when saved.
        case dropsNegativeZero
        /// Strings are saved in their precomposed (NFC) form.
        case normalizesStrings
        /// A deleted object's ID is handed out again for the next new object of its entity.
        case reusesDeletedReferences
        /// Fetches ignore the request's offset.
        case ignoresOffset
        /// Fetches sort the other way from each sort descriptor's direction.
        case reversesSortDirection
        /// Fetches never include sub-entities.
        case excludesSubentities
        /// To-many members come back in reverse order, so ordered relationships lose their order.
        case reversesToManyOrder
        /// A save that deletes objects loses its last insert.
        case losesLastInsertWhenDeleting
        /// A save writes its inserts first, in a step of their own, and keeps them when the
        /// rest of the save fails.
        case writesInsertsFirst
        /// Updates and deletions are applied whatever version the saving context saw.
        case ignoresVersionConflicts
        /// String comparisons ignore `[c]` and `[d]`, while the store claims to evaluate them.
        case ignoresStringOptions
        /// Updates keep the objects' old to-many members.
        case ignoresToManyUpdates
        /// Values held by slot are read as if they came in the order of their names (the order
        /// the binary codec writes), so they land on the wrong keys.
        case readsSlotsInNameOrder
        /// A new store takes a fresh UUID instead of the identifier it is given, so that a
        /// migrated store changes its identity.
        case ignoresIdentifierForNewStore
        /// The store claims `batchComputedValues` but its batch updates set only the constant
        /// values, as one written against the constants-only contract would.
        case ignoresComputedBatchValues
        /// A fetch of an entity the store does not hold throws `unknownObject`, not `unknownEntity`.
        case misnamesUnknownEntities
        /// Derived attributes are saved as null, as by a store leaving them to triggers it lacks.
        case dropsDerivedValues
        /// The bytes of transformable attributes are saved reversed.
        case reversesTransformedData
        /// Fetches treat every comparison with `SELF` as true.
        case ignoresComparisonsWithSelf
        /// Elements of a composite nested in another (`address.geo.latitude`) are saved as null,
        /// as by a store flattening composites one level deep.
        case dropsNestedCompositeElements
        /// The store opens writable whatever the options say, so a read-only opening accepts saves.
        case ignoresReadOnly
        /// References to objects of other stores are saved with the store's own identifier, as
        /// by a store keeping only their numbers, while it claims `crossStoreRelationships`.
        case dropsOtherStoresIdentifiers
        /// A save that breaks a uniqueness constraint fails with `conflict`, naming no clash, as
        /// by a store passing on its unique index's error as a plain conflict.
        case misreportsConstraintClashes
        /// A save writes its inserts one at a time, pausing between them, so that a reader sees
        /// part of it.
        case showsSavesPartWay
        /// The store reports no configuration, so the coordinator takes it for a store of every
        /// entity, as by a store that forgets the configuration it was opened with.
        case forgetsItsConfiguration
    }

    let defect: Defect
    let base: any IncrementalStore
    /// IDs of deleted objects, for ``Defect/reusesDeletedReferences``.
    private let deletedIDs = Locked<[ObjectID]>([])
    init(defect: Defect, base: any IncrementalStore) {
        self.defect = defect
        self.base = base
    }

    /// A store type whose stores have `defect`.
    static func type(_ defect: Defect) -> StoreType {
        StoreType(
            name: "Broken-\(defect.rawValue)",
            open: { request in
                var request = request
                if defect == .ignoresIdentifierForNewStore { request.identifierForNewStore = UUID().uuidString }
                if defect == .ignoresReadOnly { request.options.isReadOnly = false }
                return BrokenStore(defect: defect, base: try InMemoryStore.open(request))
            },
            readMetadata: { _ in nil },
            writeMetadata: { _, url in
                throw StoreError(code: .unsupported, message: "A broken store has no file at '\(url.path)'.")
            },
            destroy: { _ in })
    }

    var typeName: String { "Broken-\(defect.rawValue)" }
    var identifier: String { base.identifier }
    var url: URL? { base.url }
    var configurationName: String? { defect == .forgetsItsConfiguration ? nil : base.configurationName }
    var options: StoreOptions { base.options }
    /// The base's, without persistent history: the defects aim at other categories, and the
    /// history checks have negative controls of their own.
    var capabilities: StoreCapabilities {
        let capabilities = base.capabilities.subtracting(.persistentHistory)
        return defect == .ignoresComputedBatchValues
            ? capabilities.union([.batchOperations, .batchComputedValues]) : capabilities
    }
    var metadata: StoreMetadata {
        var metadata = base.metadata
        metadata.storeType = typeName
        return metadata
    }
    var predicateFeatures: PredicateFeatures { base.predicateFeatures }

    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        var request = request
        switch defect {
        case .ignoresOffset: request.fetchOffset = 0
        case .reversesSortDirection:
            request.sortDescriptors = request.sortDescriptors.map { descriptor in
                var descriptor = descriptor
                descriptor.ascending.toggle()
                return descriptor
            }
        case .excludesSubentities: request.includesSubentities = false
        case .ignoresStringOptions: request.predicate = request.predicate.map(Self.withoutStringOptions)
        case .ignoresComparisonsWithSelf: request.predicate = request.predicate.map(Self.withoutSelfComparisons)
        default: break
        }
        do {
            return try base.execute(request)
        } catch let error as StoreError where error.code == .unknownEntity && defect == .misnamesUnknownEntities {
            throw StoreError(code: .unknownObject, message: error.message)
        }
    }

    func snapshot(for objectID: ObjectID) throws -> Snapshot? { try base.snapshot(for: objectID) }

    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        let members = try base.relatedObjectIDs(of: objectID, relationship: relationship)
        return defect == .reversesToManyOrder ? members.reversed() : members
    }

    func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        let fresh = try base.permanentIDs(forEntities: entityNames)
        guard defect == .reusesDeletedReferences else { return fresh }
        return deletedIDs.withLock { deleted in
            fresh.map { id in
                guard let index = deleted.firstIndex(where: { $0.entityName == id.entityName }) else { return id }
                return deleted.remove(at: index)
            }
        }
    }

    func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult? {
        guard defect == .ignoresComputedBatchValues else { return nil }
        let request = StoreFetchRequest(
            entityName: update.entityName, includesSubentities: update.includesSubentities,
            predicate: update.predicate, resultType: .snapshots)
        guard case .snapshots(let matched) = try execute(request) else { return nil }
        let changes = matched.map { old in
            var values = old.values
            for (key, value) in update.values { values[key] = value }
            return StoreChangeSet.ObjectChange(objectID: old.objectID, values: values, expectedVersion: old.version)
        }
        try save(StoreChangeSet(updated: changes))
        let ids = matched.map(\.objectID)
        return update.listsObjectIDs ? StoreBatchUpdateResult(objectIDs: ids) : StoreBatchUpdateResult(count: ids.count)
    }

    func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
        var changes = changes
        changes.inserted = changes.inserted.map(damaged)
        changes.updated = changes.updated.map(damaged)
        switch defect {
        case .readsSlotsInNameOrder:
            changes.inserted = changes.inserted.map(Self.readInNameOrder)
            changes.updated = changes.updated.map(Self.readInNameOrder)
        case .ignoresToManyUpdates:
            changes.updated = changes.updated.map { change in
                var change = change
                change.toManyRelationships = [:]
                return change
            }
        case .losesLastInsertWhenDeleting where !changes.deleted.isEmpty && !changes.inserted.isEmpty:
            changes.inserted.removeLast()
        case .writesInsertsFirst where !changes.inserted.isEmpty:
            try base.save(StoreChangeSet(inserted: changes.inserted))
            changes.inserted = []
        case .showsSavesPartWay where changes.inserted.count > 1:
            for change in changes.inserted.dropLast() {
                try base.save(StoreChangeSet(inserted: [change]))
                Thread.sleep(forTimeInterval: 0.002)
            }
            changes.inserted = Array(changes.inserted.suffix(1))
        case .ignoresVersionConflicts:
            changes.updated = try changes.updated.map { change in
                var change = change
                change.expectedVersion = try base.snapshot(for: change.objectID)?.version ?? change.expectedVersion
                return change
            }
            changes.deleted = try changes.deleted.map { deletion in
                var deletion = deletion
                deletion.expectedVersion =
                    try base.snapshot(for: deletion.objectID)?.version ?? deletion.expectedVersion
                return deletion
            }
        default: break
        }
        do {
            try base.save(changes, committingAfter: decision)
        } catch let error as StoreError
            where error.code == .constraintConflict && defect == .misreportsConstraintClashes
        {
            throw StoreError(code: .conflict, message: error.message)
        }
        if defect == .reusesDeletedReferences {
            deletedIDs.withLock { $0 += changes.deleted.map(\.objectID) }
        }
    }

    private static func readInNameOrder(_ change: StoreChangeSet.ObjectChange) -> StoreChangeSet.ObjectChange {
        guard let (entity, slots) = change.values.slotted else { return change }
        var change = change
        let names = entity.slotNames.prefix(entity.persistentSlotCount).sorted()
        change.values = PropertyValues(Dictionary(uniqueKeysWithValues: zip(names, slots)))
        return change
    }

    private func damaged(_ change: StoreChangeSet.ObjectChange) -> StoreChangeSet.ObjectChange {
        var change = change
        change.values = change.values.mapValues(damaged)
        change.toManyRelationships = change.toManyRelationships.mapValues { $0.map(damaged) }
        guard
            defect == .dropsDerivedValues || defect == .reversesTransformedData
                || defect == .dropsNestedCompositeElements,
            let (entity, slots) = change.values.slotted
        else { return change }
        var values = Dictionary(uniqueKeysWithValues: zip(entity.slotNames.prefix(entity.persistentSlotCount), slots))
        for attribute in entity.attributes where values[attribute.name] != nil {
            if defect == .dropsDerivedValues, attribute.derivationExpression != nil { values[attribute.name] = .null }
            if defect == .dropsNestedCompositeElements, attribute.name.filter({ $0 == "." }).count > 1 {
                values[attribute.name] = .null
            }
            if defect == .reversesTransformedData, attribute.type == .transformable,
                case .binary(let data)? = values[attribute.name]
            {
                values[attribute.name] = .binary(Data(data.reversed()))
            }
        }
        change.values = PropertyValues(values)
        return change
    }

    private func damaged(_ value: AttributeValue) -> AttributeValue {
        switch (defect, value) {
        case (.dropsSubSecondDates, .date(let date)):
            .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        case (.dropsNegativeZero, .double(let number)) where number == 0: .double(0)
        case (.dropsNegativeZero, .float(let number)) where number == 0: .float(0)
        case (.normalizesStrings, .string(let text)): .string(text.precomposedStringWithCanonicalMapping)
        case (.dropsOtherStoresIdentifiers, .objectID(let id)): .objectID(damaged(id))
        default: value
        }
    }

    private func damaged(_ id: ObjectID) -> ObjectID {
        guard defect == .dropsOtherStoresIdentifiers else { return id }
        var id = id
        id.storeIdentifier = base.identifier
        return id
    }

    /// `predicate` with every comparison with `SELF` made true.
    private static func withoutSelfComparisons(_ predicate: FetchPredicate) -> FetchPredicate {
        switch predicate {
        case .constant: predicate
        case .and(let parts): .and(parts.map(withoutSelfComparisons))
        case .or(let parts): .or(parts.map(withoutSelfComparisons))
        case .not(let inner): .not(withoutSelfComparisons(inner))
        case .comparison(let comparison):
            comparison.left == .evaluatedObject || comparison.right == .evaluatedObject ? .constant(true) : predicate
        }
    }

    /// `predicate` with the string options of every comparison removed, sub-queries included.
    private static func withoutStringOptions(_ predicate: FetchPredicate) -> FetchPredicate {
        switch predicate {
        case .constant: predicate
        case .and(let parts): .and(parts.map(withoutStringOptions))
        case .or(let parts): .or(parts.map(withoutStringOptions))
        case .not(let inner): .not(withoutStringOptions(inner))
        case .comparison(let comparison): .comparison(withoutStringOptions(comparison))
        }
    }

    private static func withoutStringOptions(_ comparison: ComparisonPredicate) -> ComparisonPredicate {
        var comparison = comparison
        comparison.options = []
        comparison.left = withoutStringOptions(comparison.left)
        comparison.right = withoutStringOptions(comparison.right)
        return comparison
    }

    private static func withoutStringOptions(_ expression: FetchExpression) -> FetchExpression {
        guard case .subquery(let collection, let variable, let predicate) = expression else { return expression }
        return .subquery(collection: collection, variable: variable, predicate: withoutStringOptions(predicate))
    }
}

/// A broken store joins saves across stores as the in-memory store it is built on does: it
/// needs no save log, and takes its part, defects and all, once the others have theirs.
extension BrokenStore: InMemoryOnlyStore {
    var keepsStateInMemoryOnly: Bool { (base as? any InMemoryOnlyStore)?.keepsStateInMemoryOnly ?? false }
}
