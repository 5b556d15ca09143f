import Strata

/// How the rows of one entity table are selected and read back into snapshots: every column,
/// in the table's order, `numeric` ones as text.
struct PostgresRowReader: Sendable {
    let table: PostgresLayout.EntityTable
    /// The quoted, schema-qualified table name.
    let qualifiedName: String
    private let plans: [Int16: EntityPlan]
    private let entityNamesByNumber: [Int16: String]
    private let storeIdentifier: String
    /// The namespace of each entity's IDs in the store, by entity name, made once.
    private let namespaces: [String: ObjectID.Namespace]

    /// Where each persistent slot of one entity comes from.
    private struct EntityPlan: Sendable {
        let entity: EntitySchema
        let slots: [Source]
    }

    private enum Source: Sendable {
        case attribute(column: Int, type: AttributeType)
        /// A to-one: the column holding the key and the one holding the entity number, which must
        /// be one of `kinds` (the destination's and its subentities').
        case toOne(column: Int, entityColumn: Int?, destination: String, kinds: Set<Int16>)
        /// A to-one leading to another store's objects: the column holding the object's URI.
        case reference(column: Int)
        case absent
    }

    init(table: PostgresLayout.EntityTable, layout: PostgresLayout, model: ModelSchema, storeIdentifier: String) {
        self.table = table
        self.storeIdentifier = storeIdentifier
        qualifiedName = layout.qualified(table.name)
        let columns = table.columns
        var plans: [Int16: EntityPlan] = [:]
        for entityName in table.entities {
            guard let entity = model.entitiesByName[entityName], let number = layout.entityNumbers[entityName] else {
                continue
            }
            let sources = entity.slotNames.prefix(entity.persistentSlotCount).map { name -> Source in
                let owner = layout.declaringEntity(of: name, from: entityName, model: model)
                if let attribute = entity.attributesByName[name],
                    let column = columns.firstIndex(where: { $0.role == .attribute(entity: owner, name: name) })
                {
                    return .attribute(column: column, type: attribute.type)
                }
                if let relationship = entity.relationshipsByName[name],
                    let column = columns.firstIndex(where: { $0.role == .toOne(entity: owner, name: name) })
                {
                    return .toOne(
                        column: column,
                        entityColumn: columns.firstIndex { $0.role == .toOneEntity(entity: owner, name: name) },
                        destination: relationship.destinationEntityName,
                        kinds: Set(
                            ([relationship.destinationEntityName]
                                + (model.entitiesByName[relationship.destinationEntityName]?.descendantNames ?? []))
                                .compactMap { layout.entityNumbers[$0] }))
                }
                if let column = columns.firstIndex(where: { $0.role == .reference(entity: owner, name: name) }) {
                    return .reference(column: column)
                }
                return .absent
            }
            plans[number] = EntityPlan(entity: entity, slots: Array(sources))
        }
        self.plans = plans
        entityNamesByNumber = Dictionary(uniqueKeysWithValues: layout.entityNumbers.map { ($0.value, $0.key) })
        let names = model.entities.map(\.name)
        namespaces = Dictionary(
            uniqueKeysWithValues: zip(
                names, ObjectID.Namespace.namespaces(storeIdentifier: storeIdentifier, entityNames: names)))
    }

    /// The table's columns for a `SELECT` from the table aliased `alias`.
    func selectList(_ alias: String) -> String {
        table.columns.map { column in
            let name = "\(alias).\(column.quoted)"
            return column.type == .numeric ? "\(name)::text" : name
        }.joined(separator: ", ")
    }

    /// The entity name of row `row`, whose columns start at `offset`.
    func entityName(_ result: PostgresResult, row: Int, offset: Int = 0) -> String? {
        guard case .smallint(let number)? = result.value(row, offset + 1) else { return nil }
        return plans[number]?.entity.name
    }

    /// The snapshot of row `row`, whose columns start at `offset`.
    func snapshot(_ result: PostgresResult, row: Int, offset: Int = 0, storeName: String) throws -> Snapshot {
        guard case .bigint(let key)? = result.value(row, offset),
            case .smallint(let number)? = result.value(row, offset + 1),
            case .bigint(let version)? = result.value(row, offset + 2), let plan = plans[number]
        else {
            throw StoreError(code: .corrupt, message: "\(storeName) has a row of table '\(table.name)' it cannot read.")
        }
        var slots = [AttributeValue](repeating: .null, count: plan.slots.count)
        for (slot, source) in plan.slots.enumerated() {
            switch source {
            case .attribute(let column, let type):
                guard let value = result.attributeValue(row, offset + column, as: type) else {
                    throw StoreError(
                        code: .corrupt,
                        message: "\(storeName) holds a value of '\(plan.entity.name).\(plan.entity.slotNames[slot])' "
                            + "in row \(key) that is not a \(type) value.")
                }
                slots[slot] = value
            case .toOne(let column, let entityColumn, let destination, let kinds):
                guard case .bigint(let target)? = result.value(row, offset + column) else { continue }
                var entityName = destination
                if let entityColumn {
                    switch result.value(row, offset + entityColumn) {
                    case .smallint(let number)? where kinds.contains(number):
                        entityName = entityNamesByNumber[number] ?? destination
                    case .null?, nil: break
                    case let stored?:
                        throw StoreError(
                            code: .corrupt,
                            message: "\(storeName) holds \(stored) as the entity number of "
                                + "'\(plan.entity.name).\(plan.entity.slotNames[slot])' in row \(key), which is not that of "
                                + "'\(destination)' or of one of its subentities.")
                    }
                }
                slots[slot] = .objectID(objectID(entityName, key: target))
            case .reference(let column):
                guard let value = result.value(row, offset + column), value != .null else { continue }
                slots[slot] = .objectID(
                    try PostgresLayout.referencedObjectID(
                        value, in: "'\(plan.entity.name).\(plan.entity.slotNames[slot])' of row \(key)",
                        of: storeName))
            case .absent: continue
            }
        }
        return Snapshot(
            objectID: objectID(plan.entity.name, key: key), values: PropertyValues(entity: plan.entity, slots: slots),
            version: version)
    }

    /// The ID of the object of `entityName` whose row has primary key `key`.
    private func objectID(_ entityName: String, key: Int64) -> ObjectID {
        guard let namespace = namespaces[entityName] else {
            return ObjectID(storeIdentifier: storeIdentifier, entityName: entityName, reference: .integer(key))
        }
        return ObjectID(namespace, reference: .integer(key))
    }

    /// The columns a save writes: every column but the key, entity number, version and order
    /// columns (the last are written with the to-many relationships they order).
    var writtenColumns: [PostgresLayout.Column] { writtenIndices.map { table.columns[$0] } }

    private var writtenIndices: [Int] {
        table.columns.indices.filter { index in
            switch table.columns[index].role {
            case .attribute, .toOne, .toOneEntity, .reference: true
            default: false
            }
        }
    }

    /// The values of ``writtenColumns`` for `entity`'s row holding `values`: null where the
    /// entity has no such property.
    func columnValues(_ values: PropertyValues, entity: EntitySchema, layout: PostgresLayout) -> [PostgresValue] {
        var row = [PostgresValue](repeating: .null, count: table.columns.count)
        guard let number = layout.entityNumbers[entity.name], let plan = plans[number] else {
            return writtenIndices.map { row[$0] }
        }
        let slots =
            values.slots(for: entity) ?? entity.slotNames.prefix(entity.persistentSlotCount).map { values[$0] ?? .null }
        for (slot, source) in plan.slots.enumerated() where slot < slots.count {
            switch source {
            case .attribute(let column, _): row[column] = PostgresValueCodec.encode(slots[slot])
            case .toOne(let column, let entityColumn, _, _):
                guard case .objectID(let target) = slots[slot], case .integer(let key) = target.reference else {
                    continue
                }
                row[column] = .bigint(key)
                if let entityColumn { row[entityColumn] = .smallint(layout.entityNumbers[target.entityName] ?? 0) }
            case .reference(let column):
                if case .objectID(let target) = slots[slot] { row[column] = .text(target.uriString) }
            case .absent: continue
            }
        }
        return writtenIndices.map { row[$0] }
    }
}
