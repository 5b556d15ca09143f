import Foundation

/// Runs a mapping model from a source store into an empty destination store: first every
/// object an entity mapping makes gets its ID in the destination (its source ID's number where
/// it can keep it, so that references other stores keep to it stay valid), then the source's
/// objects are read a batch at a time, their destination values worked out from the property
/// mappings, and saved into the destination as inserts.
///
/// Every reference to an object of the source store is pointed at the object made from it;
/// references to other stores are kept as they are. A reference to an object that no mapping
/// made is dropped when its entity was removed or filtered, and fails the migration when the
/// source should have held it (a dangling reference).
struct MigrationEngine {
    let mapping: MappingModel
    let source: any IncrementalStore
    let sourceSchema: ModelSchema
    /// The entities the source store holds.
    let sourceEntityNames: Set<String>
    let destination: any IncrementalStore
    let destinationSchema: ModelSchema
    /// The entities the destination store holds.
    let destinationEntityNames: Set<String>
    /// How messages name the source store.
    let sourceName: String
    /// The migration policies entity mappings may name, by name.
    var policies: [String: any MigrationPolicy] = [:]
    /// How many objects are read, converted and saved at a time.
    var batchSize = 10_000
    let progress: (@Sendable (MigrationProgress) -> Void)?

    /// Copies the objects, then the persistent history (``copyHistory(_:_:)``); the
    /// destination must be empty.
    ///
    /// Mappings without a policy first give every object they make its new ID; policy
    /// mappings then make their objects (held in memory); the other mappings' objects are
    /// converted and saved a batch at a time; last the policy mappings set their objects'
    /// relationships and everything left is saved. Returns which new object each mapping
    /// made from each source object.
    @discardableResult
    func run() throws -> MigrationAssociations {
        let planned = try plannedMappings()
        let streamed = planned.filter { $0.policy == nil }
        let associations = try associate(streamed)
        let reader = MigrationSourceReader(store: source, schema: sourceSchema)
        let registry = MigrationInstanceRegistry()
        var contexts: [(policy: any MigrationPolicy, context: MigrationPolicyContext)] = []
        for plan in planned {
            guard let policy = plan.policy else { continue }
            let converter = MigrationObjectConverter(
                plan: plan, associations: associations, reader: reader, sourceName: sourceName,
                policies: policies)
            let context = MigrationPolicyContext(
                plan: plan, converter: converter, sourceSchema: sourceSchema, destinationSchema: destinationSchema,
                associations: associations, registry: registry, destination: destination,
                destinationEntityNames: destinationEntityNames)
            try createInstances(of: plan, by: policy, in: context, reader: reader)
            contexts.append((policy, context))
        }
        var writer = MigrationWriter(
            destination: destination, schema: destinationSchema, entityNames: destinationEntityNames,
            savesInBatches: !(destination is AtomicStoreAdapter))
        for (plan, table) in zip(streamed, associations.tables) {
            let converter = MigrationObjectConverter(
                plan: plan, associations: associations, reader: reader, sourceName: sourceName,
                policies: policies)
            for start in stride(from: 0, to: max(table.entries.count, 1), by: batchSize) {
                try checkCancellation()
                let end = min(start + batchSize, table.entries.count)
                let ids = table.entries[start..<end].map { associations.sourceID(of: table, $0) }
                let newIDs = table.entries[start..<end].map { associations.newID(of: table, $0.new) }
                let objects = try converter.convert(ids, to: newIDs)
                try writer.add(objects, through: table.firstOrdinal + end, validating: !plan.passesValuesThrough)
                progress?(MigrationProgress(completedObjects: writer.added, totalObjects: associations.count))
            }
        }
        for (policy, context) in contexts {
            for (instance, _) in context.primary { try policy.createRelationships(for: instance, in: context) }
            try policy.endEntityMapping(in: context)
        }
        try writer.add(
            registry.instances.map {
                MigrationObjectConverter.Converted(
                    change: StoreChangeSet.ObjectChange(
                        objectID: $0.objectID, values: $0.values, toManyRelationships: $0.members, expectedVersion: 0),
                    lastMember: -1)
            }, through: Int.max, validating: true)
        try writer.finish()
        try copyHistory(associations, planned)
        progress?(MigrationProgress(completedObjects: associations.count, totalObjects: associations.count))
        return associations
    }

    /// The first stage of a policy mapping: the policy makes the objects for each source
    /// object, read a batch at a time.
    private func createInstances(
        of plan: MigrationPlannedMapping, by policy: any MigrationPolicy, in context: MigrationPolicyContext,
        reader: MigrationSourceReader
    ) throws {
        var ids = try objectIDs(of: plan.sourceEntity.name)
        if let filter = plan.mapping.sourceFilter { ids = try filtered(ids, by: filter, of: plan, reader: reader) }
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            try checkCancellation()
            for record in try context.converter.read(Array(ids[start..<min(start + batchSize, ids.count)])) {
                context.current = record
                try policy.createDestinationInstances(
                    for: MigrationSourceInstance(object: record.object, schema: sourceSchema), in: context)
            }
        }
        context.current = nil
    }

    private func checkCancellation() throws {
        if Task.isCancelled {
            throw MigrationError(code: .cancelled, message: "The migration of \(sourceName) was cancelled.")
        }
    }

    /// The entity mappings that make objects from entities the source store holds, in order.
    private func plannedMappings() throws(MigrationError) -> [MigrationPlannedMapping] {
        var names = Set<String>()
        var planned: [MigrationPlannedMapping] = []
        for entityMapping in mapping.entityMappings {
            guard names.insert(entityMapping.name).inserted else {
                throw MigrationError(
                    code: .invalidMapping,
                    message: "The mapping model has two entity mappings named '\(entityMapping.name)'.")
            }
            if let name = entityMapping.sourceEntityName, sourceSchema.entitiesByName[name] == nil {
                throw unknownEntity(name, "source", entityMapping)
            }
            if let name = entityMapping.destinationEntityName, destinationSchema.entitiesByName[name] == nil {
                throw unknownEntity(name, "destination", entityMapping)
            }
            guard entityMapping.makesObjects, let sourceName = entityMapping.sourceEntityName,
                let destinationName = entityMapping.destinationEntityName, sourceEntityNames.contains(sourceName),
                let sourceEntity = sourceSchema.entitiesByName[sourceName],
                let destinationEntity = destinationSchema.entitiesByName[destinationName]
            else { continue }
            guard destinationEntityNames.contains(destinationName) else {
                throw MigrationError(
                    code: .invalidMapping,
                    message: "Entity mapping '\(entityMapping.name)' makes '\(destinationName)' objects, which the "
                        + "destination store's configuration does not hold.",
                    entityName: destinationName)
            }
            var policy: (any MigrationPolicy)? = entityMapping.kind == .custom ? DefaultMigrationPolicy() : nil
            if let name = entityMapping.migrationPolicyName {
                guard let registered = MigrationPolicyLookup.policy(named: name, in: policies) else {
                    throw MigrationError(
                        code: .unknownPolicy,
                        message:
                            "Entity mapping '\(entityMapping.name)' names migration policy '\(name)', which is not "
                            + "registered (registered: \(policies.keys.sorted())).",
                        entityName: sourceName)
                }
                policy = registered
            }
            planned.append(
                try MigrationPlannedMapping(
                    entityMapping, from: sourceEntity, to: destinationEntity, in: destinationSchema, policy: policy))
        }
        for plan in planned {
            for property in plan.mapping.relationshipMappings {
                guard let named = property.relationshipSource.mappingName, !names.contains(named) else { continue }
                throw MigrationError(
                    code: .invalidMapping,
                    message: "Relationship mapping '\(plan.mapping.name).\(property.name)' names entity mapping "
                        + "'\(named)', which the mapping model does not have.",
                    entityName: plan.destinationEntity.name, propertyName: property.name)
            }
        }
        return planned
    }

    private func unknownEntity(_ name: String, _ role: String, _ mapping: EntityMapping) -> MigrationError {
        MigrationError(
            code: .invalidMapping,
            message: "Entity mapping '\(mapping.name)' names \(role) entity '\(name)', which the \(role) model does "
                + "not have.",
            entityName: name)
    }

    /// Gives every object each planned mapping makes its new ID: its source ID's reference
    /// where the hierarchy it lands in can keep them (``keepingHierarchies(_:)``), else one the
    /// destination hands out.
    private func associate(_ planned: [MigrationPlannedMapping]) throws -> MigrationAssociations {
        let associations = MigrationAssociations(
            sourceStore: source.identifier, destinationStore: destination.identifier)
        let reader = MigrationSourceReader(store: source, schema: sourceSchema)
        var sourceIDs: [[ObjectID]] = []
        for plan in planned {
            var ids = try objectIDs(of: plan.sourceEntity.name)
            if let filter = plan.mapping.sourceFilter { ids = try filtered(ids, by: filter, of: plan, reader: reader) }
            sourceIDs.append(ids)
        }
        let keeping = try keepingHierarchies(Array(zip(planned, sourceIDs)))
        for (plan, ids) in zip(planned, sourceIDs) {
            let entries =
                keeping.contains(plan.destinationEntity.rootEntityName)
                ? ids.map { MigrationAssociations.Entry(source: $0.reference, new: $0.reference) }
                : try newIDs(for: ids, of: plan.destinationEntity.name)
            guard
                associations.add(
                    mappingName: plan.mapping.name, sourceEntityName: plan.sourceEntity.name,
                    destinationEntityName: plan.destinationEntity.name,
                    takesEveryObject: plan.mapping.sourceFilter == nil, entries: entries)
            else {
                throw StoreError(
                    code: .corrupt, message: "\(sourceName) returned the same '\(plan.sourceEntity.name)' object twice."
                )
            }
        }
        return associations
    }

    /// The destination root entities whose objects keep their source references, so that
    /// references other stores keep to them stay valid (docs/CROSS-STORE-RELATIONSHIPS.md).
    ///
    /// None when a migration policy makes objects: it asks the destination for new IDs while
    /// the kept ones are not saved yet. Otherwise the destination hands out one ID for each
    /// hierarchy: when they are all alike, it numbers each hierarchy on its own (SQLite, LMDB),
    /// and each hierarchy whose references are of that kind, no two alike, keeps them; else
    /// (XML, binary, PostgreSQL) every hierarchy keeps them when no two references of the whole
    /// copy are alike, and none does otherwise, since new numbers could then meet kept ones.
    /// The destination keeps an inserted ID it did not hand out and never hands it out
    /// afterwards (`B.idsNeverHandedOutAreKept`).
    private func keepingHierarchies(_ planned: [(plan: MigrationPlannedMapping, ids: [ObjectID])]) throws -> Set<String>
    {
        guard planned.allSatisfy({ $0.plan.policy == nil }) else { return [] }
        var hierarchies: [String: (entityName: String, references: [ObjectID.Reference])] = [:]
        for (plan, ids) in planned {
            hierarchies[plan.destinationEntity.rootEntityName, default: (plan.destinationEntity.name, [])].references +=
                ids.lazy.map(\.reference)
        }
        let roots = hierarchies.keys.sorted()
        let handedOut = try destination.permanentIDs(forEntities: roots.compactMap { hierarchies[$0]?.entityName })
        guard handedOut.count == roots.count, let kind = handedOut.first?.reference else { return [] }
        func keepable(_ references: [ObjectID.Reference]) -> Bool {
            let sorted = references.sorted(by: MigrationAssociations.precedes)
            return sorted.allSatisfy { MigrationAssociations.rank($0) == MigrationAssociations.rank(kind) }
                && zip(sorted, sorted.dropFirst()).allSatisfy { $0 != $1 }
        }
        if Set(handedOut.map(\.reference)).count == 1 {
            return Set(roots.filter { keepable(hierarchies[$0]?.references ?? []) })
        }
        return keepable(roots.flatMap { hierarchies[$0]?.references ?? [] }) ? Set(roots) : []
    }

    /// The IDs of the objects of `entityName` (sub-entities excepted) in the source.
    private func objectIDs(of entityName: String) throws -> [ObjectID] {
        let request = StoreFetchRequest(entityName: entityName, includesSubentities: false, resultType: .objectIDs)
        guard case .objectIDs(let ids) = try source.execute(request) else {
            throw StoreError(
                code: .corrupt,
                message: "\(sourceName) answered an ID fetch of '\(entityName)' with another result type.")
        }
        guard ids.allSatisfy({ $0.entityName == entityName && $0.storeIdentifier == source.identifier }) else {
            throw StoreError(
                code: .corrupt, message: "\(sourceName) answered an ID fetch of '\(entityName)' with other objects.")
        }
        return ids
    }

    /// The objects of `ids` the source filter accepts, read a batch at a time.
    private func filtered(
        _ ids: [ObjectID], by filter: FetchPredicate, of plan: MigrationPlannedMapping, reader: MigrationSourceReader
    ) throws -> [ObjectID] {
        var kept: [ObjectID] = []
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            for snapshot in try source.snapshots(for: Array(ids[start..<min(start + batchSize, ids.count)])) {
                let object = MigrationSourceObject(
                    objectID: snapshot.objectID, values: snapshot.values, members: [:], reader: reader)
                let scope = EvaluationScope(
                    evaluatedObject: .object(object), bindings: [MigrationVariable.source.rawValue: .object(object)])
                do {
                    if try PredicateEvaluator().evaluate(filter, in: scope) { kept.append(snapshot.objectID) }
                } catch {
                    if let failure = reader.takeError() { throw failure }
                    throw MigrationError(
                        code: .evaluationFailed,
                        message: "The source filter of entity mapping '\(plan.mapping.name)' failed for "
                            + "\(snapshot.objectID): \(error)",
                        entityName: plan.sourceEntity.name, underlying: error)
                }
            }
        }
        return kept
    }

    /// New IDs from the destination for the objects `sourceIDs`, asked for in batches.
    private func newIDs(for sourceIDs: [ObjectID], of entityName: String) throws -> [MigrationAssociations.Entry] {
        var entries: [MigrationAssociations.Entry] = []
        entries.reserveCapacity(sourceIDs.count)
        for start in stride(from: 0, to: sourceIDs.count, by: batchSize) {
            let batch = sourceIDs[start..<min(start + batchSize, sourceIDs.count)]
            let newIDs = try destination.permanentIDs(forEntities: Array(repeating: entityName, count: batch.count))
            guard newIDs.count == batch.count,
                newIDs.allSatisfy({ $0.entityName == entityName && $0.storeIdentifier == destination.identifier })
            else {
                throw StoreError(
                    code: .corrupt,
                    message: "The destination handed out \(newIDs.count) IDs for \(batch.count) '\(entityName)' "
                        + "objects, or IDs of another entity or store.")
            }
            for (sourceID, newID) in zip(batch, newIDs) {
                entries.append(MigrationAssociations.Entry(source: sourceID.reference, new: newID.reference))
            }
        }
        return entries
    }
}
