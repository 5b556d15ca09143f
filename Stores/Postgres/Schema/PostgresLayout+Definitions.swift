import Strata

extension PostgresLayout {
    /// An index or constraint of one of the store's tables.
    struct IndexDefinition: Sendable, Hashable {
        /// The table's name in the layout.
        let table: String
        /// The statement that makes it.
        let statement: String
    }

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
        statements += entityTables.map(createStatement(of:)) + joinTables.map(createStatement(of:))
        statements += referenceTables.map(createStatement(of:))
        statements += storageDefinitions(model: model, resettingOthers: false)
        statements += indexDefinitions(model: model).map(\.statement)
        return statements
    }

    /// `CREATE TABLE` for an entity table.
    func createStatement(of table: EntityTable) -> String {
        let columns = table.columns.map { column in
            switch column.role {
            case .primaryKey: "\(column.quoted) bigint PRIMARY KEY"
            case .entity, .version: "\(column.quoted) \(column.type.rawValue) NOT NULL"
            default: "\(column.quoted) \(column.type.rawValue)"
            }
        }
        return "CREATE TABLE \(qualified(table.name)) (\(columns.joined(separator: ", ")))"
    }

    /// `CREATE TABLE` for a join table.
    func createStatement(of table: JoinTable) -> String {
        """
        CREATE TABLE \(qualified(table.name)) (source bigint NOT NULL, destination bigint NOT NULL, \
        source_order integer, destination_order integer, PRIMARY KEY (source, destination))
        """
    }

    /// `CREATE TABLE` for a reference table.
    func createStatement(of table: ReferenceTable) -> String {
        "CREATE TABLE \(qualified(table.name)) (owner bigint NOT NULL, reference text NOT NULL, "
            + "position integer, PRIMARY KEY (owner, reference))"
    }

    /// The indexes and constraints of the store's tables: the fetch indexes, which the model
    /// names, before the indexes PostgreSQL names; then the uniqueness constraints.
    func indexDefinitions(model: ModelSchema) -> [IndexDefinition] {
        var tableIndexes: [IndexDefinition] = []
        for table in entityTables {
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
        tableIndexes += joinTables.map { index(on: $0.name, ["destination"]) }
        tableIndexes += referenceTables.map { index(on: $0.name, ["reference"]) }
        return fetchIndexes(model: model).definitions + tableIndexes + constraintDefinitions(model: model)
    }

    /// The statements that keep the values of attributes allowing external binary storage out
    /// of the row, uncompressed (`STORAGE EXTERNAL`): PostgreSQL moves a value longer than about
    /// 2 KB into the table's TOAST table, in chunks, and a row read without that column never
    /// touches it. Large binary values are mostly compressed already (images, archives), so
    /// PostgreSQL's attempt to compress them first would cost time for nothing. With
    /// `resettingOthers`, every other binary column is given PostgreSQL's default back
    /// (`EXTENDED`: compressed first), as a migration that changes the setting needs.
    func storageDefinitions(model: ModelSchema, resettingOthers: Bool) -> [String] {
        entityTables.flatMap { table in
            table.columns.compactMap { column -> String? in
                guard case .attribute(let entity, let name) = column.role, column.type == .bytea else { return nil }
                let external = model.entitiesByName[entity]?.attributesByName[name]?.storesExternally == true
                guard external || resettingOthers else { return nil }
                return "ALTER TABLE \(qualified(table.name)) ALTER COLUMN \(column.quoted) SET STORAGE "
                    + (external ? "EXTERNAL" : "EXTENDED")
            }
        }
    }

    /// The statements that create reference table `table` and its index on the references.
    func definitions(of table: ReferenceTable) -> [String] {
        [createStatement(of: table), index(on: table.name, ["reference"]).statement]
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
    private func constraintDefinitions(model: ModelSchema) -> [IndexDefinition] {
        var statements: [IndexDefinition] = []
        for table in entityTables {
            guard let entity = model.entitiesByName[table.rootEntity] else { continue }
            for constraint in entity.description.uniquenessConstraints {
                let columns = constraint.compactMap { columnName(of: $0, entity: table.rootEntity, model: model) }
                guard columns.count == constraint.count else { continue }
                let name = PostgresIdentifier.quoted("\(table.name)_unique_\(constraint.joined(separator: "_"))")
                statements.append(
                    IndexDefinition(
                        table: table.name,
                        statement: """
                            ALTER TABLE \(qualified(table.name)) ADD CONSTRAINT \(name) \
                            UNIQUE (\(columns.map(PostgresIdentifier.quoted).joined(separator: ", "))) \
                            DEFERRABLE INITIALLY DEFERRED
                            """))
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

    private func index(on table: String, _ columns: [String]) -> IndexDefinition {
        IndexDefinition(
            table: table,
            statement:
                "CREATE INDEX ON \(qualified(table)) (\(columns.map(PostgresIdentifier.quoted).joined(separator: ", ")))"
        )
    }
}
