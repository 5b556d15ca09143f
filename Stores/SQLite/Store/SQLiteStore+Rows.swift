import Strata

extension SQLiteStore {
    /// Every column of `table`, qualified by `alias`, in the table's column order.
    func selectList(_ table: SQLiteSchema.EntityTable, alias: String = "t0") -> String {
        table.columns.map { "\(alias).\($0.name)" }.joined(separator: ", ")
    }

    /// The condition keeping the rows of `kinds` among those of `table` (aliased `t0`); `nil`
    /// when the table holds no other entity's rows.
    func entityCondition(_ kinds: [String], in table: SQLiteSchema.EntityTable) -> String? {
        guard table.entities.count > 1 || kinds.count != table.entities.count else { return nil }
        let numbers = kinds.compactMap { layout.entityNumbers[$0] }.map(String.init).joined(separator: ", ")
        return "t0.Z_ENT IN (\(numbers))"
    }

    /// The ID of the object in a row whose primary key and entity number are `primaryKey` and
    /// `entityNumber`.
    func objectID(primaryKey: SQLiteValue, entityNumber: SQLiteValue) throws -> ObjectID {
        guard case .integer(let key) = primaryKey, case .integer(let number) = entityNumber,
            let namespace = namespacesByNumber[number]
        else {
            throw StoreError(
                code: .corrupt,
                message: "\(storeName) has a row with primary key \(primaryKey) and entity number \(entityNumber), "
                    + "which its model does not know.")
        }
        return ObjectID(namespace, reference: .integer(key))
    }

    /// The ID of the object in a row of `table`, whose entity number must be one of the table's
    /// tree (a row of `ZITEM` claiming to be a `Person` is damaged, not a person).
    func objectID(
        primaryKey: SQLiteValue, entityNumber: SQLiteValue, in table: borrowing SQLiteSchema.EntityTable
    ) throws -> ObjectID {
        let objectID = try objectID(primaryKey: primaryKey, entityNumber: entityNumber)
        if case .integer(let number) = entityNumber, !table.entityNumbers.contains(number) {
            throw misplacedRow(objectID, number: number, in: table.name)
        }
        return objectID
    }

    /// The error for the row of `objectID` in the table `name`, whose entity number `number`
    /// is not one of the table's.
    private func misplacedRow(_ objectID: ObjectID, number: Int64, in name: String) -> StoreError {
        StoreError(
            code: .corrupt,
            message: "\(storeName) has a row \(objectID) in \(name) whose entity number \(number) is that of "
                + "'\(objectID.entityName)', which \(name) does not hold.")
    }

    /// The ID of a member of a to-many relationship: of a row of this store, or, for a
    /// relationship leading to another store's objects, read from the URI `key` holds.
    func memberID(_ key: SQLiteValue, entityNumber: SQLiteValue) throws -> ObjectID {
        guard case .text(let uri) = key else { return try objectID(primaryKey: key, entityNumber: entityNumber) }
        return try referencedObjectID(uri)
    }

    /// The object of another store whose URI a reference column or table holds.
    ///
    /// - Throws: `StoreError/Code/corrupt` when `uri` is not an object's URI.
    func referencedObjectID(_ uri: String) throws -> ObjectID {
        guard let objectID = ObjectID(uriString: uri), !objectID.isTemporary else {
            throw StoreError(
                code: .corrupt,
                message: "\(storeName) holds '\(uri)' where it keeps references to other stores' objects, "
                    + "which is not an object's URI.")
        }
        return objectID
    }

    /// The snapshot of the row `statement` is on, whose columns are `selectList(table)`.
    func snapshot(at statement: SQLiteStatement, in table: SQLiteSchema.EntityTable) throws -> Snapshot {
        let entityNumber = statement.value(at: 1)
        let objectID = try objectID(primaryKey: statement.value(at: 0), entityNumber: entityNumber)
        let reader: SQLiteRowReader
        if case .integer(let number) = entityNumber, let known = entityRowsByNumber[number]?.reader,
            known.tableName == table.name
        {
            reader = known
        } else {
            // The reader of an entity of this table is the one found above: any other number is
            // a row that claims another table's entity.
            if case .integer(let number) = entityNumber, !table.entityNumbers.contains(number) {
                throw misplacedRow(objectID, number: number, in: table.name)
            }
            reader = rowReader(of: try entitySchema(named: objectID.entityName), in: table)
        }
        let entity = reader.entity
        guard case .integer(let version) = statement.value(at: 2) else {
            throw StoreError(code: .corrupt, message: "\(storeName) has no version (Z_OPT) for \(objectID).")
        }
        var slots = [AttributeValue](repeating: .null, count: entity.persistentSlotCount)
        for attribute in reader.attributes {
            let stored = statement.value(at: attribute.index)
            if attribute.isExternal {
                slots[attribute.slot] = try externalData.value(
                    in: stored, place: externalPlace(objectID, attribute.name))
                continue
            }
            guard let value = SQLiteValueCodec.decode(stored, as: attribute.type) else {
                throw StoreError(
                    code: .corrupt,
                    message: "\(storeName) holds \(stored) in \(table.name).\(table.columns[attribute.index].name) for "
                        + "\(objectID), which is not a valid \(attribute.type.modelFileName) for '\(entity.name).\(attribute.name)'."
                )
            }
            slots[attribute.slot] = value
        }
        for toOne in reader.toOnes {
            slots[toOne.slot] = try destination(of: toOne, at: statement, of: objectID)
        }
        return Snapshot(objectID: objectID, values: PropertyValues(entity: entity, slots: slots), version: version)
    }

    /// Where the rows of `objectID`'s entity are, which must be an entity of this store: found
    /// by the ID's namespace, without hashing names, for an ID of this store.
    func entityRow(of objectID: ObjectID) throws -> EntityRow {
        if let known = entityRowsByNamespace[objectID.namespace] { return known }
        let table = try table(of: objectID.entityName)
        let entity = try entitySchema(named: objectID.entityName)
        return EntityRow(
            number: layout.entityNumbers[entity.name] ?? 0, reader: rowReader(of: entity, in: table), table: table,
            membersByKey: [:])
    }

    /// How to read the rows of `entity` in `table`: worked out when the store opened, or now
    /// for a table the entity's rows are not kept in.
    func rowReader(of entity: EntitySchema, in table: SQLiteSchema.EntityTable) -> SQLiteRowReader {
        if let reader = rowReaders[entity.name], reader.tableName == table.name { return reader }
        return SQLiteRowReader(entity: entity, table: table, layout: layout, model: model)
    }

    /// The object a to-one relationship points at in the row of `objectID` `statement` is on,
    /// or null.
    ///
    /// - Throws: `StoreError/Code/corrupt` when the relationship's entity-number column names
    ///   an entity that is neither its destination nor one of the destination's subentities.
    private func destination(
        of toOne: SQLiteRowReader.ToOneColumn, at statement: SQLiteStatement, of objectID: ObjectID
    ) throws -> AttributeValue {
        if toOne.isReference, let index = toOne.index, case .text(let uri) = statement.value(at: index) {
            return .objectID(try referencedObjectID(uri))
        }
        guard let index = toOne.index, case .integer(let key) = statement.value(at: index) else { return .null }
        var number = toOne.destinationEntityNumber
        if let entityIndex = toOne.entityIndex {
            switch statement.value(at: entityIndex) {
            case .null: break
            case .integer(let stored) where toOne.destinationEntityNumbers.contains(stored): number = stored
            case let stored:
                throw StoreError(
                    code: .corrupt,
                    message: "\(storeName) holds \(stored) as the entity number of '\(toOne.name)' of \(objectID), "
                        + "which is not that of '\(toOne.destinationEntityName)' or of one of its subentities.")
            }
        }
        guard let number, let namespace = namespacesByNumber[number] else {
            let id = ObjectID(
                storeIdentifier: identifier, entityName: toOne.destinationEntityName, reference: .integer(key))
            return .objectID(id)
        }
        return .objectID(ObjectID(namespace, reference: .integer(key)))
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
