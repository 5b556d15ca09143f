import Strata

extension SQLiteStore {
    /// Every column of `table`, qualified by `alias`, in the table's column order.
    func selectList(_ table: SQLiteSchema.EntityTable, alias: String = "t0") -> String {
        table.columns.map { "\(alias).\($0.name)" }.joined(separator: ", ")
    }

    /// The ID of the object in a row whose primary key and entity number are `primaryKey` and
    /// `entityNumber`.
    func objectID(primaryKey: SQLiteValue, entityNumber: SQLiteValue) throws -> ObjectID {
        guard case .integer(let key) = primaryKey, case .integer(let number) = entityNumber,
            let entityName = layout.entityName(number: number)
        else {
            throw StoreError(
                code: .corrupt,
                message: "\(storeName) has a row with primary key \(primaryKey) and entity number \(entityNumber), "
                    + "which its model does not know.")
        }
        return ObjectID(storeIdentifier: identifier, entityName: entityName, reference: .integer(key))
    }

    /// The snapshot of the row `statement` is on, whose columns are `selectList(table)`.
    func snapshot(at statement: SQLiteStatement, in table: SQLiteSchema.EntityTable) throws -> Snapshot {
        let objectID = try objectID(primaryKey: statement.value(at: 0), entityNumber: statement.value(at: 1))
        let entity = try entitySchema(named: objectID.entityName)
        guard case .integer(let version) = statement.value(at: 2) else {
            throw StoreError(code: .corrupt, message: "\(storeName) has no version (Z_OPT) for \(objectID).")
        }
        var values: [String: AttributeValue] = [:]
        for attribute in entity.attributes where !attribute.isTransient {
            let owner = layout.declaringEntity(of: attribute.name, in: entity, model: model)
            guard let index = layout.columnIndex(.attribute(entity: owner, name: attribute.name), in: table) else {
                continue
            }
            let stored = statement.value(at: index)
            guard let value = SQLiteValueCodec.decode(stored, as: attribute.type) else {
                throw StoreError(
                    code: .corrupt,
                    message: "\(storeName) holds \(stored) in \(table.name).\(table.columns[index].name) for "
                        + "\(objectID), which is not a valid \(attribute.type.modelFileName) for '\(entity.name).\(attribute.name)'."
                )
            }
            values[attribute.name] = value
        }
        for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany {
            values[relationship.name] = try destination(of: relationship, in: entity, table: table, at: statement)
        }
        return Snapshot(objectID: objectID, values: values, version: version)
    }

    /// The object a to-one relationship points at in the row `statement` is on, or null.
    private func destination(
        of relationship: RelationshipDescription, in entity: EntitySchema, table: SQLiteSchema.EntityTable,
        at statement: SQLiteStatement
    ) throws -> AttributeValue {
        let owner = layout.declaringEntity(of: relationship.name, in: entity, model: model)
        guard let index = layout.columnIndex(.toOne(entity: owner, name: relationship.name), in: table),
            case .integer(let key) = statement.value(at: index)
        else { return .null }
        var entityName = relationship.destinationEntityName
        if let entityIndex = layout.columnIndex(.toOneEntity(entity: owner, name: relationship.name), in: table),
            case .integer(let number) = statement.value(at: entityIndex), let name = layout.entityName(number: number)
        {
            entityName = name
        }
        return .objectID(ObjectID(storeIdentifier: identifier, entityName: entityName, reference: .integer(key)))
    }

    /// The primary key of `objectID`, which must be one of this store's.
    func primaryKey(of objectID: ObjectID) throws -> Int64 {
        guard objectID.storeIdentifier == identifier, case .integer(let key) = objectID.reference else {
            throw StoreError(code: .unknownObject, message: "\(storeName) has no object \(objectID).")
        }
        return key
    }

    /// The table holding the rows of `entityName`.
    func table(of entityName: String) throws -> SQLiteSchema.EntityTable {
        guard let table = layout.tableOfEntity[entityName] else {
            throw StoreError(code: .unknownEntity, message: "Entity '\(entityName)' has no table in \(storeName).")
        }
        return table
    }
}
