import Strata

extension PostgresSchemaChange {
    /// Plans an entity table of the new layout: made empty when none of its entities were old
    /// ones, else altered from the one old table their objects are in.
    mutating func plan(_ table: PostgresLayout.EntityTable, index: Int) throws(InPlaceMapping.Declined) -> TablePlan {
        let kept = table.entities.compactMap { mapping.entitiesByDestination[$0] }
        let oldNames = Set(kept.compactMap { source.tableOfEntity[$0.source.name]?.name })
        var plan = TablePlan(
            name: table.name, oldName: oldNames.first, index: index, create: destination.createStatement(of: table))
        guard let oldName = oldNames.first, let old = source.entityTables.first(where: { $0.name == oldName }) else {
            return plan
        }
        guard oldNames.count == 1 else {
            throw InPlaceMapping.Declined(description: "table \(table.name) would take rows from \(oldNames.sorted())")
        }
        var columns = EntityColumns(change: self, table: table, old: old, kept: kept)
        plan.alterations = try columns.alterations(of: source.qualified(plan.workingName)).map(Operation.sql)
        requiredColumns += columns.requiredColumns
        return plan
    }

    /// Works out how an old entity table's columns and rows become a new one's: each new
    /// column is an old column (renamed when its name changes), or added, empty or holding a
    /// constant; old columns nothing uses are dropped; rows of entities no longer kept are
    /// deleted; entity numbers, and values that depend on the entity, are set by one `UPDATE`.
    struct EntityColumns {
        let change: PostgresSchemaChange
        let table: PostgresLayout.EntityTable
        let old: PostgresLayout.EntityTable
        /// The new entities of the table whose objects are old objects.
        let kept: [InPlaceMapping.Entity]
        private(set) var requiredColumns: [RequiredColumn] = []

        init(
            change: PostgresSchemaChange, table: PostgresLayout.EntityTable, old: PostgresLayout.EntityTable,
            kept: [InPlaceMapping.Entity]
        ) {
            self.change = change
            self.table = table
            self.old = old
            self.kept = kept
        }

        /// Where a new column's values come from, the same for every entity that has it.
        enum Origin: Equatable {
            /// The old column of this name.
            case column(String)
            /// This constant, as SQL.
            case constant(String)
            /// Nothing: the column starts empty.
            case null
        }

        /// A new column's origin, and the expression (over the old row, old entity numbers
        /// and new column names) that its value is set to afterwards, if any.
        private struct Plan {
            var origin: Origin
            var update: String?
            /// `ALTER COLUMN … TYPE … USING …`, when the column's values change type.
            var retype: String?
        }

        /// The SQL converting a value of `from` held in a column (given by its SQL) to one of
        /// `to` exactly as Strata's migration converts it (``AttributeType``'s conversions): a
        /// wider integer, or an integer's decimal digits as a string; `nil` for every other
        /// conversion, which PostgreSQL's casts could give otherwise.
        static func conversion(_ from: AttributeType, _ to: AttributeType) -> ((String) -> String)? {
            switch (from, to) {
            case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64):
                return { $0 }
            case (.integer16, .string), (.integer32, .string), (.integer64, .string):
                return { "convert_to(\($0)::text, 'UTF8')" }
            default:
                return nil
            }
        }

        /// The statements, naming the table as `name`.
        mutating func alterations(of name: String) throws(InPlaceMapping.Declined) -> [String] {
            var plans: [(column: PostgresLayout.Column, plan: Plan)] = []
            for column in table.columns {
                switch column.role {
                case .primaryKey, .version, .entity: continue
                default: plans.append((column, try plan(for: column)))
                }
            }
            var statements: [String] = []
            let keptNumbers = Set(kept.compactMap(oldNumber))
            if keptNumbers != Set(old.entities.compactMap(concreteOldNumber)) {
                statements.append(
                    "DELETE FROM \(name) WHERE \"_ent\" NOT IN (\(Self.list(keptNumbers)))"
                )
            }
            let used = plans.compactMap { entry -> String? in
                if case .column(let oldColumn) = entry.plan.origin { return oldColumn }
                return nil
            }
            if let twice = Set(used.filter { name in used.filter { $0 == name }.count > 1 }).first {
                throw InPlaceMapping.Declined(description: "column \(old.name).\(twice) would fill two columns")
            }
            for column in old.columns where !Self.rowColumns.contains(column.name) && !used.contains(column.name) {
                statements.append("ALTER TABLE \(name) DROP COLUMN \(column.quoted)")
            }
            // Renamed through names of their own, so that two columns may swap names.
            let renamed = plans.compactMap { entry -> (from: String, to: PostgresLayout.Column)? in
                guard case .column(let oldColumn) = entry.plan.origin, oldColumn != entry.column.name else {
                    return nil
                }
                return (oldColumn, entry.column)
            }
            for (offset, rename) in renamed.enumerated() {
                statements.append(
                    "ALTER TABLE \(name) RENAME COLUMN \(PostgresIdentifier.quoted(rename.from)) TO "
                        + "\"_strata_column_\(offset)\"")
            }
            for (offset, rename) in renamed.enumerated() {
                statements.append(
                    "ALTER TABLE \(name) RENAME COLUMN \"_strata_column_\(offset)\" TO \(rename.to.quoted)")
            }
            var updates: [String] = []
            for (column, plan) in plans {
                switch plan.origin {
                case .column: break
                case .null:
                    statements.append("ALTER TABLE \(name) ADD COLUMN \(column.quoted) \(column.type.rawValue)")
                case .constant(let sql):
                    // A constant default fills every row without rewriting the table.
                    statements.append(
                        "ALTER TABLE \(name) ADD COLUMN \(column.quoted) \(column.type.rawValue) DEFAULT \(sql)")
                    statements.append("ALTER TABLE \(name) ALTER COLUMN \(column.quoted) DROP DEFAULT")
                }
                if let update = plan.update { updates.append("\(column.quoted) = \(update)") }
            }
            let retypes = plans.compactMap(\.plan.retype)
            if !retypes.isEmpty { statements.append("ALTER TABLE \(name) " + retypes.joined(separator: ", ")) }
            if let renumbering = entityNumbers() { updates.insert("\"_ent\" = \(renumbering)", at: 0) }
            if !updates.isEmpty { statements.append("UPDATE \(name) SET " + updates.joined(separator: ", ")) }
            return statements
        }

        /// The columns of the row itself, which every entity table has.
        private static let rowColumns: Set<String> = ["_pk", "_ent", "_opt"]

        /// `numbers` as the list of an SQL `IN`; `-1`, which no entity has, for none.
        private static func list(_ numbers: some Collection<Int16>) -> String {
            numbers.isEmpty ? "-1" : numbers.sorted().map(String.init).joined(separator: ", ")
        }

        private func oldNumber(_ entity: InPlaceMapping.Entity) -> Int16? {
            entity.source.description.isAbstract ? nil : change.source.entityNumbers[entity.source.name]
        }

        private func concreteOldNumber(_ name: String) -> Int16? {
            change.sourceModel.entitiesByName[name]?.description.isAbstract == false
                ? change.source.entityNumbers[name] : nil
        }

        /// `CASE "_ent" …` when an entity's number changes; `nil` when none does.
        private func entityNumbers() -> String? {
            let pairs = kept.compactMap { entity -> (Int16, Int16)? in
                guard let from = oldNumber(entity), let to = change.destination.entityNumbers[entity.destination.name]
                else { return nil }
                return (from, to)
            }
            guard pairs.contains(where: { $0.0 != $0.1 }) else { return nil }
            return "CASE \"_ent\" " + pairs.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ") + " END"
        }

        // MARK: One column

        /// The old numbers of the kept entities that are kinds of `entity`: the rows a column
        /// of `entity`'s property belongs to.
        private func numbers(ofKind entity: String) -> Set<Int16> {
            Set(kept.filter { $0.destination.isKind(of: entity) }.compactMap(oldNumber))
        }

        private mutating func plan(for column: PostgresLayout.Column) throws(InPlaceMapping.Declined) -> Plan {
            guard case let (entity, property)? = Self.owner(of: column.role) else { return Plan(origin: .null) }
            var origins: [Origin] = []
            for entry in kept where entry.destination.isKind(of: entity) {
                let origin = try origin(of: column, property: property, for: entry)
                if !origins.contains(origin) { origins.append(origin) }
            }
            guard origins.count <= 1 else {
                throw InPlaceMapping.Declined(
                    description: "'\(entity).\(property)' would take its values from different places for its entities"
                )
            }
            let rows = numbers(ofKind: entity)
            let others = Set(kept.compactMap(oldNumber)).subtracting(rows)
            var plan = Plan(origin: origins.first ?? .null)
            switch plan.origin {
            case .column(let name):
                guard let oldColumn = old.columns.first(where: { $0.name == name }) else {
                    throw InPlaceMapping.Declined(description: "table \(old.name) has no column \(name)")
                }
                if oldColumn.type != column.type {
                    guard case .attribute(let oldEntity, let oldName) = oldColumn.role,
                        let from = change.sourceModel.entitiesByName[oldEntity]?.attributesByName[oldName]?.type,
                        let to = change.destinationModel.entitiesByName[entity]?.attributesByName[property]?.type,
                        let using = Self.conversion(from, to)
                    else {
                        throw InPlaceMapping.Declined(description: "column \(old.name).\(name) changes type")
                    }
                    plan.retype =
                        "ALTER COLUMN \(column.quoted) TYPE \(column.type.rawValue) USING "
                        + using(column.quoted)
                }
                // The old column's values must belong to the new column's entities only.
                let filled = Set(
                    kept.filter { entry in
                        Self.owner(of: oldColumn.role).map { entry.source.isKind(of: $0.entity) } ?? false
                    }.compactMap(oldNumber))
                guard filled.isSubset(of: rows) else {
                    throw InPlaceMapping.Declined(
                        description: "column \(old.name).\(name) holds values of entities '\(entity).\(property)' "
                            + "does not belong to")
                }
            case .constant(let sql) where !others.isEmpty:
                plan = Plan(origin: .null, update: "CASE WHEN \"_ent\" IN (\(Self.list(rows))) THEN \(sql) END")
            case .constant, .null: break
            }
            try settleRequired(column, entity: entity, property: property, rows: rows, others: others, plan: &plan)
            if case .toOneEntity = column.role { plan.update = try toOneEntityUpdate(column, entity: entity) }
            return plan
        }

        /// The entity and property whose value a column holds.
        private static func owner(of role: PostgresLayout.Role) -> (entity: String, property: String)? {
            switch role {
            case .attribute(let entity, let name), .toOne(let entity, let name), .toOneEntity(let entity, let name),
                .order(let entity, let name), .reference(let entity, let name):
                (entity, name)
            case .primaryKey, .entity, .version: nil
            }
        }

        /// The old column holding property `key` of the old entity `entity` in the role `role`
        /// makes for it.
        private func oldColumn(_ role: (String, String) -> PostgresLayout.Role, _ key: String, of entity: EntitySchema)
            -> String?
        {
            let owner = change.source.declaringEntity(of: key, from: entity.name, model: change.sourceModel)
            return old.column(role(owner, key))?.name
        }

        private func origin(of column: PostgresLayout.Column, property: String, for entry: InPlaceMapping.Entity)
            throws(InPlaceMapping.Declined) -> Origin
        {
            switch column.role {
            case .attribute:
                return try attributeOrigin(property, for: entry)
            case .toOne, .toOneEntity, .order, .reference:
                guard let key = entry.relationships[property] else { return .null }
                if case .toOne = column.role { try checkTargetsKept(of: key, in: entry) }
                let role: (String, String) -> PostgresLayout.Role =
                    switch column.role {
                    case .toOneEntity: { .toOneEntity(entity: $0, name: $1) }
                    case .order: { .order(entity: $0, name: $1) }
                    case .reference: { .reference(entity: $0, name: $1) }
                    default: { .toOne(entity: $0, name: $1) }
                    }
                if let name = oldColumn(role, key, of: entry.source) { return .column(name) }
                if case .toOneEntity = column.role { return .null }
                throw InPlaceMapping.Declined(
                    description: "'\(entry.destination.name).\(property)' keeps what '\(entry.source.name).\(key)' "
                        + "did not store the same way")
            case .primaryKey, .entity, .version:
                return .null
            }
        }

        /// Where attribute `name` (a leaf of a composite attribute, `root.leaf`, included) of
        /// `entry` takes its values.
        private func attributeOrigin(_ name: String, for entry: InPlaceMapping.Entity) throws(InPlaceMapping.Declined)
            -> Origin
        {
            let root = String(name.prefix { $0 != "." })
            let leaf = name.dropFirst(root.count)
            switch entry.attributes[root] {
            case nil:
                return .null
            case .value(let value)?:
                guard !value.isNull else { return .null }
                guard leaf.isEmpty, let sql = PostgresValueCodec.encode(value).constantSQL else {
                    throw InPlaceMapping.Declined(
                        description: "the constant for '\(entry.destination.name).\(name)' has no form in SQL")
                }
                return .constant(sql)
            case .attribute(let key, let type)?:
                let destinationType = entry.destination.attributesByName[root]?.type
                guard
                    type == destinationType
                        || leaf.isEmpty && destinationType.flatMap({ Self.conversion(type, $0) }) != nil
                else {
                    throw InPlaceMapping.Declined(
                        description: "'\(entry.destination.name).\(root)' converts the values of "
                            + "'\(entry.source.name).\(key)' to a type PostgreSQL does not convert them to exactly")
                }
                guard let column = oldColumn({ .attribute(entity: $0, name: $1) }, key + leaf, of: entry.source) else {
                    throw InPlaceMapping.Declined(description: "'\(entry.source.name).\(key + leaf)' has no column")
                }
                return .column(column)
            }
        }

        /// Declines when a kept to-one may hold an object that is not kept: its key would
        /// lead nowhere.
        private func checkTargetsKept(of key: String, in entry: InPlaceMapping.Entity) throws(InPlaceMapping.Declined) {
            guard
                let target = entry.source.relationshipsByName[key].flatMap({
                    change.sourceModel.entitiesByName[$0.destinationEntityName]
                })
            else { return }
            for name in [target.name] + target.descendantNames
            where change.sourceModel.entitiesByName[name]?.description.isAbstract == false {
                guard change.mapping.entitiesBySource[name] != nil else {
                    throw InPlaceMapping.Declined(
                        description: "'\(entry.source.name).\(key)' may hold '\(name)' objects, which are not kept")
                }
            }
        }

        /// The new entity number of the object a to-one holds, for destinations with
        /// sub-entities: the old number renumbered, or, when the old destination had none, the
        /// number of its one entity wherever the to-one holds an object.
        private func toOneEntityUpdate(_ column: PostgresLayout.Column, entity: String) throws(InPlaceMapping.Declined)
            -> String?
        {
            guard case .toOneEntity(_, let name) = column.role,
                let entry = kept.first(where: { $0.destination.isKind(of: entity) }),
                let key = entry.relationships[name],
                let target = entry.source.relationshipsByName[key].flatMap({
                    change.sourceModel.entitiesByName[$0.destinationEntityName]
                }),
                let keyColumn = change.destination.tableOfEntity[entity]?.column(
                    .toOne(
                        entity: change.destination.declaringEntity(
                            of: name, from: entity, model: change.destinationModel), name: name))
            else { return nil }
            let pairs = ([target.name] + target.descendantNames).compactMap { oldName -> (Int16, Int16)? in
                guard let made = change.mapping.entitiesBySource[oldName],
                    let from = change.source.entityNumbers[oldName],
                    let to = change.destination.entityNumbers[made.destination.name]
                else { return nil }
                return (from, to)
            }
            guard oldColumn({ .toOneEntity(entity: $0, name: $1) }, key, of: entry.source) != nil else {
                guard let (_, number) = pairs.first else { return nil }
                return "CASE WHEN \(keyColumn.quoted) IS NOT NULL THEN \(number) END"
            }
            guard pairs.contains(where: { $0.0 != $0.1 }) else { return nil }
            return "CASE \(column.quoted) " + pairs.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ") + " END"
        }

        /// Gives a non-optional attribute that may come out empty its default value, or
        /// records that the migration must check each object has a value.
        private mutating func settleRequired(
            _ column: PostgresLayout.Column, entity: String, property: String, rows: Set<Int16>, others: Set<Int16>,
            plan: inout Plan
        ) throws(InPlaceMapping.Declined) {
            for entry in kept where entry.destination.isKind(of: entity) {
                switch column.role {
                case .attribute:
                    guard let attribute = entry.destination.attributesByName[property], !attribute.isOptional else {
                        continue
                    }
                    let mayBeNull: Bool =
                        switch entry.attributes[property] {
                        case .attribute(let key, _)?: entry.source.attributesByName[key]?.isOptional ?? true
                        case .value(let value)?: value.isNull
                        case nil: true
                        }
                    guard mayBeNull else { continue }
                    guard !attribute.defaultValue.isNull,
                        let fallback = PostgresValueCodec.encode(attribute.defaultValue).constantSQL
                    else {
                        require(property, of: entry, column: column.name)
                        continue
                    }
                    switch plan.origin {
                    case .null where others.isEmpty:
                        plan.origin = .constant(fallback)
                    case .null:
                        plan.update = "CASE WHEN \"_ent\" IN (\(Self.list(rows))) THEN \(fallback) END"
                    case .column:
                        plan.update =
                            others.isEmpty
                            ? "COALESCE(\(column.quoted), \(fallback))"
                            : "CASE WHEN \"_ent\" IN (\(Self.list(rows))) THEN COALESCE(\(column.quoted), \(fallback)) "
                                + "ELSE \(column.quoted) END"
                    case .constant: break
                    }
                    return
                case .toOne, .reference:
                    guard let relationship = entry.destination.relationshipsByName[property], !relationship.isOptional
                    else { continue }
                    let wasOptional = entry.relationships[property].flatMap {
                        entry.source.relationshipsByName[$0]?.isOptional
                    }
                    if wasOptional != false { require(property, of: entry, column: column.name) }
                default:
                    return
                }
            }
        }

        private mutating func require(_ property: String, of entity: InPlaceMapping.Entity, column: String) {
            guard let number = change.destination.entityNumbers[entity.destination.name] else { return }
            requiredColumns.append(
                RequiredColumn(
                    table: table.name, entityNumber: number, column: column, entity: entity.destination.name,
                    property: property))
        }
    }
}
