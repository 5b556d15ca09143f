import Strata

extension PostgresLayout {
    /// The statements that create the store's tables, sequence and indexes in its schema.
    func definitions(model: ModelSchema) -> [String] {
        var statements = [
            "CREATE SCHEMA IF NOT EXISTS \(PostgresIdentifier.quoted(schemaName))",
            """
            CREATE TABLE \(qualified(Self.metadataTable)) (id smallint PRIMARY KEY CHECK (id = 1), \
            format integer NOT NULL, tables bytea NOT NULL, metadata bytea NOT NULL)
            """,
            "CREATE SEQUENCE \(qualified(Self.keySequence)) AS bigint",
        ]
        var tableIndexes: [String] = []
        for table in entityTables {
            let columns = table.columns.map { column in
                switch column.role {
                case .primaryKey: "\(column.quoted) bigint PRIMARY KEY"
                case .entity, .version: "\(column.quoted) \(column.type.rawValue) NOT NULL"
                default: "\(column.quoted) \(column.type.rawValue)"
                }
            }
            statements.append("CREATE TABLE \(qualified(table.name)) (\(columns.joined(separator: ", ")))")
            statements += outOfRowStorageDefinitions(of: table, model: model)
            if table.entities.count > 1 { tableIndexes.append(index(on: table.name, ["_ent"])) }
            // Each to-one's key, and each attribute the model marks indexed (Core Data's older
            // form of a one-attribute fetch index), gets an index of its own.
            for column in table.columns {
                switch column.role {
                case .toOne, .reference: break
                case .attribute(let entity, let name)
                where model.entitiesByName[entity]?.attributesByName[name]?.isIndexed == true:
                    break
                default: continue
                }
                tableIndexes.append(index(on: table.name, [column.name]))
            }
        }
        for table in joinTables {
            statements.append(
                """
                CREATE TABLE \(qualified(table.name)) (source bigint NOT NULL, destination bigint NOT NULL, \
                source_order integer, destination_order integer, PRIMARY KEY (source, destination))
                """)
            tableIndexes.append(index(on: table.name, ["destination"]))
        }
        statements += referenceTables.flatMap(definitions(of:))
        // The fetch indexes, which the model names, come before the indexes PostgreSQL names.
        statements += fetchIndexes(model: model).statements + tableIndexes + constraintDefinitions(model: model)
        return statements
    }

    /// The statements that keep the values of attributes allowing external binary storage out
    /// of the row, uncompressed (`STORAGE EXTERNAL`): PostgreSQL moves a value longer than about
    /// 2 KB into the table's TOAST table, in chunks, and a row read without that column never
    /// touches it. Large binary values are mostly compressed already (images, archives), so
    /// PostgreSQL's attempt to compress them first would cost time for nothing.
    private func outOfRowStorageDefinitions(of table: EntityTable, model: ModelSchema) -> [String] {
        table.columns.compactMap { column in
            guard case .attribute(let entity, let name) = column.role,
                model.entitiesByName[entity]?.attributesByName[name]?.storesExternally == true
            else { return nil }
            return "ALTER TABLE \(qualified(table.name)) ALTER COLUMN \(column.quoted) SET STORAGE EXTERNAL"
        }
    }

    /// The statements that create reference table `table` and its index on the references.
    func definitions(of table: ReferenceTable) -> [String] {
        [
            "CREATE TABLE \(qualified(table.name)) (owner bigint NOT NULL, reference text NOT NULL, "
                + "position integer, PRIMARY KEY (owner, reference))",
            index(on: table.name, ["reference"]),
        ]
    }

    /// Every table the store creates, its own included: what destroying it drops.
    var tableNames: [String] {
        [Self.metadataTable] + entityTables.map(\.name) + joinTables.map(\.name) + referenceTables.map(\.name)
    }

    /// A unique constraint for each uniqueness constraint, checked at commit so that a save may
    /// swap values between objects. It is the last line against two processes saving the same
    /// values at once; the store checks each save itself first and names the clashing objects.
    /// A constraint of a sub-entity, which shares its table with other entities, is checked by
    /// the store alone.
    private func constraintDefinitions(model: ModelSchema) -> [String] {
        var statements: [String] = []
        for table in entityTables {
            guard let entity = model.entitiesByName[table.rootEntity] else { continue }
            for constraint in entity.description.uniquenessConstraints {
                let columns = constraint.compactMap { columnName(of: $0, entity: table.rootEntity, model: model) }
                guard columns.count == constraint.count else { continue }
                let name = PostgresIdentifier.quoted("\(table.name)_unique_\(constraint.joined(separator: "_"))")
                statements.append(
                    """
                    ALTER TABLE \(qualified(table.name)) ADD CONSTRAINT \(name) \
                    UNIQUE (\(columns.map(PostgresIdentifier.quoted).joined(separator: ", "))) \
                    DEFERRABLE INITIALLY DEFERRED
                    """)
            }
        }
        return statements
    }

    /// The column of attribute or to-one relationship `name` of `entity`.
    func columnName(of name: String, entity: String, model: ModelSchema) -> String? {
        let owner = declaringEntity(of: name, from: entity, model: model)
        return tableOfEntity[entity]?.columns.first {
            $0.role == .attribute(entity: owner, name: name) || $0.role == .toOne(entity: owner, name: name)
        }?.name
    }

    /// The column holding the entity number of the object to-one `name` of `entity` refers to,
    /// when its destination has sub-entities: named after the relationship, clipped and made
    /// unique like every column, so never derived from the relationship's column name.
    func entityColumnName(ofToOne name: String, entity: String, model: ModelSchema) -> String? {
        let owner = declaringEntity(of: name, from: entity, model: model)
        return tableOfEntity[entity]?.column(.toOneEntity(entity: owner, name: name))?.name
    }

    /// The column holding the URI of to-one `name` of `entity`, when it leads to another
    /// store's objects.
    func referenceColumnName(of name: String, entity: String, model: ModelSchema) -> String? {
        let owner = declaringEntity(of: name, from: entity, model: model)
        return tableOfEntity[entity]?.column(.reference(entity: owner, name: name))?.name
    }

    private func index(on table: String, _ columns: [String]) -> String {
        "CREATE INDEX ON \(qualified(table)) (\(columns.map(PostgresIdentifier.quoted).joined(separator: ", ")))"
    }
}
