/// Works out the destination objects one entity mapping makes from a batch of source objects.
struct MigrationObjectConverter {
    /// A destination object, and the place in the copying order of the last of its to-many
    /// members (-1 when it has none in this migration).
    struct Converted {
        var change: StoreChangeSet.ObjectChange
        let lastMember: Int
    }

    let plan: MigrationPlannedMapping
    let associations: MigrationAssociations
    let reader: MigrationSourceReader
    /// How messages name the source store.
    let sourceName: String
    private let evaluator = PredicateEvaluator()
    /// What `$entityPolicy` is in value expressions: the mapping's policy, or the default one.
    private let entityPolicy: MigrationPolicyTarget

    /// - Parameter policies: The registered policies, which value expressions may name as
    ///   classes (`CAST("Name", "Class")`).
    init(
        plan: MigrationPlannedMapping, associations: MigrationAssociations, reader: MigrationSourceReader,
        sourceName: String, policies: [String: any MigrationPolicy]
    ) {
        self.plan = plan
        self.associations = associations
        self.reader = reader
        self.sourceName = sourceName
        entityPolicy = MigrationPolicyTarget(plan.policy ?? DefaultMigrationPolicy(), reader: reader)
        evaluator.classes = policies.mapValues { MigrationPolicyTarget($0, reader: reader) }
    }

    /// One source object as read for converting: its stored values and the members of the
    /// to-many relationships the mapping reads.
    struct SourceRecord {
        let values: PropertyValues
        let members: [String: [ObjectID]]
        /// The object as value expressions see it.
        let object: MigrationSourceObject

        var objectID: ObjectID { object.objectID }
    }

    /// Reads the source objects `ids`, in the order the source returns them.
    func read(_ ids: [ObjectID]) throws -> [SourceRecord] {
        guard !ids.isEmpty else { return [] }
        var membersByRelationship: [String: [ObjectID: [ObjectID]]] = [:]
        for relationship in plan.prefetchedToManyRelationships {
            membersByRelationship[relationship] = try reader.store.relatedObjectIDs(
                ofEach: ids, relationship: relationship)
        }
        let snapshots = try reader.store.snapshots(for: ids)
        guard snapshots.count == ids.count else {
            throw StoreError(
                code: .corrupt,
                message: "\(sourceName) returned \(snapshots.count) of \(ids.count) '\(plan.sourceEntity.name)' "
                    + "objects it listed; was it changed during the migration?")
        }
        return snapshots.map { snapshot in
            var members: [String: [ObjectID]] = [:]
            for (relationship, membersByOwner) in membersByRelationship {
                members[relationship] = membersByOwner[snapshot.objectID] ?? []
            }
            let object = MigrationSourceObject(
                objectID: snapshot.objectID, values: snapshot.values, members: members, reader: reader)
            return SourceRecord(values: snapshot.values, members: members, object: object)
        }
    }

    /// The destination objects `newIDs` made from the source objects `ids`.
    func convert(_ ids: [ObjectID], to newIDs: [ObjectID]) throws -> [Converted] {
        let newIDBySource = Dictionary(zip(ids, newIDs), uniquingKeysWith: { first, _ in first })
        return try read(ids).map { record in
            guard let newID = newIDBySource[record.objectID] else {
                throw StoreError(
                    code: .corrupt, message: "\(sourceName) returned \(record.objectID), which was not asked for.")
            }
            return plan.passesValuesThrough ? try passThrough(record, as: newID) : try transform(record, into: newID)
        }
    }

    /// The object as it is, its references renumbered.
    private func passThrough(_ record: SourceRecord, as newID: ObjectID) throws -> Converted {
        let owner = record.objectID
        var values: [String: AttributeValue] = [:]
        values.reserveCapacity(record.values.count)
        for (key, value) in record.values {
            guard case .objectID(let id) = value else {
                values[key] = value
                continue
            }
            values[key] =
                try resolve(id, mapping: nil, heldBy: owner, in: key).first.map { .objectID($0.newID) } ?? .null
        }
        var lastMember = -1
        var newMembers: [String: [ObjectID]] = [:]
        for (relationship, sourceMembers) in record.members {
            newMembers[relationship] = try sourceMembers.compactMap { member in
                guard
                    let (id, place) = try resolveFirst(member, heldBy: owner, in: relationship, accepting: relationship)
                else { return nil }
                lastMember = max(lastMember, place)
                return id
            }
        }
        return Converted(
            change: StoreChangeSet.ObjectChange(
                objectID: newID, values: values, toManyRelationships: newMembers, expectedVersion: 0),
            lastMember: lastMember)
    }

    /// The object the mapping's property mappings make from `record`.
    private func transform(_ record: SourceRecord, into newID: ObjectID) throws -> Converted {
        var values = try attributeValues(of: record)
        let related = try relationships(of: record)
        values.merge(related.toOne) { _, new in new }
        return Converted(
            change: StoreChangeSet.ObjectChange(
                objectID: newID, values: values, toManyRelationships: related.toMany, expectedVersion: 0),
            lastMember: related.lastMember)
    }

    /// The value of every stored attribute of the destination entity for `record`.
    func attributeValues(of record: SourceRecord) throws -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        values.reserveCapacity(plan.attributes.count + plan.relationships.count)
        for (attribute, mapping) in plan.attributes {
            values[attribute.name] = try value(of: attribute, by: mapping, from: record)
        }
        return values
    }

    /// The objects of every stored relationship of the destination entity that has a
    /// mapping with an expression (all of them, with empty ones, unless `onlyMapped`), and
    /// the place in the copying order of the last to-many member.
    func relationships(of record: SourceRecord, onlyMapped: Bool = false) throws -> (
        toOne: [String: AttributeValue], toMany: [String: [ObjectID]], lastMember: Int
    ) {
        let owner = record.objectID
        var toOne: [String: AttributeValue] = [:]
        var toMany: [String: [ObjectID]] = [:]
        var lastMember = -1
        for (relationship, mapping) in plan.relationships {
            var found: [ObjectID] = []
            if let mapping, mapping.valueExpression != nil {
                for (source, made) in try destinationObjects(by: mapping, from: record) {
                    let kept = accepted(made, by: relationship.name)
                    guard !made.isEmpty, !kept.isEmpty else {
                        guard made.isEmpty else {
                            throw invalidValue(
                                relationship.name, of: owner,
                                "\(source) became \(made.map(\.newID.entityName).joined(separator: ", ")), which "
                                    + "'\(relationship.name)' cannot hold ('\(relationship.destinationEntityName)' objects)."
                            )
                        }
                        continue
                    }
                    for (id, place) in kept {
                        found.append(id)
                        if relationship.isToMany { lastMember = max(lastMember, place) }
                    }
                }
            } else if onlyMapped {
                continue
            }
            if relationship.isToMany {
                toMany[relationship.name] = found
                continue
            }
            guard found.count <= 1 else {
                throw invalidValue(
                    relationship.name, of: owner,
                    "the to-one relationship would hold \(found.count) objects "
                        + "(\(found.map(\.description).joined(separator: ", "))).")
            }
            if found.isEmpty && !relationship.isOptional && !onlyMapped {
                throw invalidValue(
                    relationship.name, of: owner, "the relationship is not optional, and no object maps to it.")
            }
            toOne[relationship.name] = found.first.map { .objectID($0) } ?? .null
        }
        return (toOne, toMany, lastMember)
    }

    /// The destination value of `attribute`: its mapping's value converted to its type, the
    /// default value when it has no mapping or a non-optional attribute's value is missing.
    private func value(of attribute: AttributeDescription, by mapping: PropertyMapping?, from record: SourceRecord)
        throws -> AttributeValue
    {
        var raw: AttributeValue
        if let key = mapping?.copiedSourceKey {
            raw = record.values[key] ?? .null
        } else if let expression = mapping?.valueExpression {
            switch try evaluate(expression, for: record.object, property: attribute.name) {
            case .value(let value): raw = value
            case .object(let object): raw = object.objectIdentity
            case .collection(let elements):
                throw invalidValue(
                    attribute.name, of: record.objectID,
                    "its value expression gives a collection of \(elements.count) elements, not a value.")
            }
        } else {
            raw = attribute.defaultValue
        }
        if case .objectID(let id) = raw {
            raw =
                try resolveFirst(id, heldBy: record.objectID, in: attribute.name).map { .objectID($0.newID) } ?? .null
        }
        guard let converted = raw.converted(to: attribute.type) else {
            throw invalidValue(
                attribute.name, of: record.objectID, "\(raw) cannot be converted to \(attribute.type.modelFileName).")
        }
        if converted.isNull && !attribute.isOptional {
            guard !attribute.defaultValue.isNull else {
                throw invalidValue(
                    attribute.name, of: record.objectID,
                    "the attribute is not optional, has no default value, "
                        + "and the source gives no value.")
            }
            return attribute.defaultValue
        }
        return converted
    }

    /// The destination objects a relationship mapping gives for one source object, with their
    /// places in the copying order.
    /// The objects of `made` that the relationship `relationship` can hold: those of its
    /// destination entity or below, and references to other stores.
    private func accepted(_ made: [(newID: ObjectID, place: Int)], by relationship: String) -> [(
        newID: ObjectID, place: Int
    )] {
        let names = plan.acceptedEntityNames[relationship] ?? []
        return made.filter {
            $0.newID.storeIdentifier != associations.destinationStore || names.contains($0.newID.entityName)
        }
    }

    /// For each source object a relationship mapping gives, the objects made from it (with
    /// their places in the copying order).
    private func destinationObjects(by mapping: PropertyMapping, from record: SourceRecord) throws -> [(
        source: ObjectID, made: [(newID: ObjectID, place: Int)]
    )] {
        let (members, object) = (record.members, record.object)
        let sources: [ObjectID]
        let mappingName: String?
        switch mapping.relationshipSource {
        case .key(let key, let name):
            mappingName = name
            if let known = members[key] {
                sources = known
            } else if plan.sourceEntity.relationshipsByName[key]?.isToMany == false
                || plan.sourceEntity.attributesByName[key] != nil
            {
                if case .objectID(let id)? = record.values[key] { sources = [id] } else { sources = [] }
            } else {
                sources = try objectIDs(in: try evaluate(.source(key), for: object, property: mapping.name), mapping)
            }
        case .expression(let expression, let name):
            mappingName = name
            sources = try objectIDs(in: try evaluate(expression, for: object, property: mapping.name), mapping)
        }
        return try sources.map {
            ($0, try resolve($0, mapping: mappingName, heldBy: record.objectID, in: mapping.name))
        }
    }

    private func objectIDs(in value: EvaluatedValue, _ mapping: PropertyMapping) throws -> [ObjectID] {
        switch value {
        case .value(.null): return []
        case .value(.objectID(let id)): return [id]
        case .object(let object):
            guard case .objectID(let id) = object.objectIdentity else { break }
            return [id]
        case .collection(let elements):
            return try elements.flatMap { try objectIDs(in: $0, mapping) }
        case .value: break
        }
        throw MigrationError(
            code: .evaluationFailed,
            message: "Relationship mapping '\(plan.mapping.name).\(mapping.name)' gives \(value.kindDescription), "
                + "not objects.",
            entityName: plan.destinationEntity.name, propertyName: mapping.name)
    }

    private func evaluate(_ expression: FetchExpression, for object: MigrationSourceObject, property: String) throws
        -> EvaluatedValue
    {
        let scope = EvaluationScope(
            evaluatedObject: .object(object),
            bindings: [
                MigrationVariable.source.rawValue: .object(object),
                MigrationVariable.entityPolicy.rawValue: .object(entityPolicy),
            ])
        do {
            return try evaluator.evaluate(expression, in: scope)
        } catch {
            if let failure = reader.takeError() { throw failure }
            throw MigrationError(
                code: .evaluationFailed,
                message: "The value expression of '\(plan.mapping.name).\(property)' failed for \(object.objectID): "
                    + "\(error)",
                entityName: plan.destinationEntity.name, propertyName: property, underlying: error)
        }
    }

    /// The objects made from the source object `id` (by the entity mapping `mapping`, or the
    /// first of its entity) with their places in the copying order; `id` itself when it
    /// belongs to another store; none when no mapping made one and none was meant to.
    ///
    /// - Throws: ``StoreError/Code/unknownObject`` when every object of its entity was
    ///   migrated but it was not: the source refers to an object it does not hold.
    func resolve(_ id: ObjectID, mapping: String?, heldBy owner: ObjectID, in property: String) throws
        -> [(newID: ObjectID, place: Int)]
    {
        guard id.storeIdentifier == associations.sourceStore else { return [(id, -1)] }
        let found = associations.lookUpAll(id, mapping: mapping)
        if found.isEmpty && mapping == nil { try checkNotDangling(id, heldBy: owner, in: property) }
        return found
    }

    /// The first object ``resolve(_:mapping:heldBy:in:)`` finds by `id`'s own entity mapping,
    /// without collecting the others when no migration policy made several: the path every
    /// reference of a copied object takes. With `relationship`, the first that relationship
    /// can hold.
    private func resolveFirst(
        _ id: ObjectID, heldBy owner: ObjectID, in property: String, accepting relationship: String? = nil
    ) throws -> (newID: ObjectID, place: Int)? {
        guard id.storeIdentifier == associations.sourceStore else { return (id, -1) }
        if let relationship, associations.policyObjectCount > 0 {
            let made = associations.lookUpAll(id)
            if made.isEmpty { try checkNotDangling(id, heldBy: owner, in: property) }
            return accepted(made, by: relationship).first
        }
        if let found = associations.lookUp(id) { return found }
        try checkNotDangling(id, heldBy: owner, in: property)
        return nil
    }

    private func checkNotDangling(_ id: ObjectID, heldBy owner: ObjectID, in property: String) throws {
        guard associations.takesEveryObject(ofEntity: id.entityName) else { return }
        throw StoreError(
            code: .unknownObject,
            message: "'\(property)' of \(owner) refers to \(id), which \(sourceName) does not hold.")
    }

    private func invalidValue(_ property: String, of owner: ObjectID, _ reason: String) -> MigrationError {
        MigrationError(
            code: .invalidValue,
            message: "Entity mapping '\(plan.mapping.name)' cannot give '\(plan.destinationEntity.name).\(property)' "
                + "of the object made from \(owner) a value: \(reason)",
            entityName: plan.destinationEntity.name, propertyName: property)
    }
}
