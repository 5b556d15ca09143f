import Foundation
import Strata

extension SQLiteSchemaChange {
    /// Writes the `SELECT` list that makes the rows of a new entity table from its old table:
    /// one SQL expression per new column, switching on the old `Z_ENT` where the entities of
    /// the table get a column's value differently.
    struct RowBuilder {
        let change: SQLiteSchemaChange
        let table: SQLiteSchema.EntityTable
        let old: SQLiteSchema.EntityTable
        /// The new entities of the table whose objects are old objects.
        let kept: [InPlaceMapping.Entity]
        private(set) var conversions: [Conversion] = []
        private(set) var requiredColumns: [RequiredColumn] = []

        init(
            change: SQLiteSchemaChange, table: SQLiteSchema.EntityTable, old: SQLiteSchema.EntityTable,
            kept: [InPlaceMapping.Entity]
        ) {
            self.change = change
            self.table = table
            self.old = old
            self.kept = kept
        }

        /// A value for the rows of some entities: its SQL, and the old entities whose rows may
        /// give it a value other than `NULL` (`nil`: any row).
        private struct Value: Equatable {
            let sql: String
            let sources: Set<String>?

            static let null = Value(sql: "NULL", sources: [])
        }

        mutating func expression(for column: SQLiteColumn) throws(InPlaceMapping.Declined) -> String {
            switch column.role {
            case .primaryKey: return "Z_PK"
            case .version: return "Z_OPT"
            case .entity: return entityNumbers()
            case .attribute(let entity, let name):
                return try perEntity(kindOf: entity) { builder, kept throws(InPlaceMapping.Declined) in
                    try builder.attribute(name, of: kept, column: column.name)
                }
            case .toOne(let entity, let name):
                return try perEntity(kindOf: entity) { builder, kept throws(InPlaceMapping.Declined) in
                    try builder.toOne(name, of: kept, column: column.name)
                }
            case .toOneEntity(let entity, let name):
                return try perEntity(kindOf: entity) { builder, kept throws(InPlaceMapping.Declined) in
                    builder.toOneEntity(name, of: kept)
                }
            case .order(let entity, let name):
                return try perEntity(kindOf: entity) { builder, kept throws(InPlaceMapping.Declined) in
                    try builder.order(name, of: kept)
                }
            case .reference(let entity, let name):
                return try perEntity(kindOf: entity) { builder, kept throws(InPlaceMapping.Declined) in
                    try builder.reference(name, of: kept, column: column.name)
                }
            }
        }

        /// `Z_ENT`, renumbered when an entity's number changes.
        private func entityNumbers() -> String {
            let pairs = kept.compactMap { entity -> (Int64, Int64)? in
                guard let old = change.source.entityNumbers[entity.source.name],
                    let new = change.destination.entityNumbers[entity.destination.name]
                else { return nil }
                return (old, new)
            }
            if pairs.allSatisfy({ $0.0 == $0.1 }) { return "Z_ENT" }
            return "CASE Z_ENT " + pairs.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ") + " END"
        }

        /// The column's SQL: `value` of each kept entity that has the column's property, plain
        /// when that gives the other rows `NULL`, else under `CASE Z_ENT`.
        private mutating func perEntity(
            kindOf entity: String,
            _ value: (inout RowBuilder, InPlaceMapping.Entity) throws(InPlaceMapping.Declined) -> Value
        ) throws(InPlaceMapping.Declined) -> String {
            var values: [(number: Int64, value: Value)] = []
            for entry in kept where entry.destination.isKind(of: entity) {
                guard let number = change.source.entityNumbers[entry.source.name] else { continue }
                values.append((number, try value(&self, entry)))
            }
            guard let first = values.first?.value else { return "NULL" }
            let covered = Set(kept.filter { $0.destination.isKind(of: entity) }.map(\.source.name))
            if values.allSatisfy({ $0.value == first }), let sources = first.sources,
                sources.isSubset(of: covered)
            {
                return first.sql
            }
            let cases = values.filter { $0.value != .null }.map { "WHEN \($0.number) THEN \($0.value.sql)" }
            return cases.isEmpty ? "NULL" : "CASE Z_ENT " + cases.joined(separator: " ") + " END"
        }

        /// The old column holding `property` of the old entity `entity`, and the old entities
        /// whose rows fill it.
        private func oldColumn(
            _ role: (String, String) -> SQLiteColumn.Role, _ property: String, of entity: EntitySchema
        ) -> (name: String, sources: Set<String>)? {
            let owner = change.source.declaringEntity(of: property, in: entity, model: change.sourceModel)
            guard let index = change.source.columnIndex(role(owner, property), in: old) else { return nil }
            let sources = kept.map(\.source).filter { $0.isKind(of: owner) }.map(\.name)
            return (old.columns[index].name, Set(sources))
        }

        private mutating func attribute(_ name: String, of entity: InPlaceMapping.Entity, column: String)
            throws(InPlaceMapping.Declined) -> Value
        {
            guard let attribute = entity.destination.attributesByName[name], let source = entity.attributes[name] else {
                return .null
            }
            var value: Value
            var mayBeNull: Bool
            switch source {
            case .value(let constant):
                value = try literal(constant)
                mayBeNull = constant.isNull
            case .attribute(let key, let type):
                guard let old = oldColumn({ .attribute(entity: $0, name: $1) }, key, of: entity.source) else {
                    throw InPlaceMapping.Declined(description: "'\(entity.source.name).\(key)' has no column")
                }
                value = Value(sql: old.name, sources: old.sources)
                mayBeNull = entity.source.attributesByName[key]?.isOptional ?? true
                if type != attribute.type {
                    let index = change.firstConversion + change.conversions.count + conversions.count
                    conversions.append(
                        Conversion(from: type, to: attribute.type, entity: entity.destination.name, attribute: name))
                    value = Value(sql: "strata_migration_convert(\(old.name), \(index), Z_PK)", sources: old.sources)
                    mayBeNull = true
                }
            }
            guard !attribute.isOptional && mayBeNull else { return value }
            if !attribute.defaultValue.isNull {
                let fallback = try literal(attribute.defaultValue)
                return value == .null ? fallback : Value(sql: "COALESCE(\(value.sql), \(fallback.sql))", sources: nil)
            }
            require(name, of: entity, column: column)
            return value
        }

        private mutating func toOne(_ name: String, of entity: InPlaceMapping.Entity, column: String)
            throws(InPlaceMapping.Declined) -> Value
        {
            guard let relationship = entity.destination.relationshipsByName[name] else { return .null }
            guard let key = entity.relationships[name] else {
                if !relationship.isOptional { require(name, of: entity, column: column) }
                return .null
            }
            guard let old = oldColumn({ .toOne(entity: $0, name: $1) }, key, of: entity.source) else {
                throw InPlaceMapping.Declined(description: "'\(entity.source.name).\(key)' has no column")
            }
            let targets = targets(of: key, in: entity.source)
            var value = Value(sql: old.name, sources: old.sources)
            if targets.kept.count < targets.all.count {
                if let entityColumn = oldColumn({ .toOneEntity(entity: $0, name: $1) }, key, of: entity.source) {
                    let numbers = targets.kept.compactMap { change.source.entityNumbers[$0] }.map(String.init)
                    value = Value(
                        sql:
                            "CASE WHEN \(entityColumn.name) IN (\(numbers.joined(separator: ", "))) THEN \(old.name) END",
                        sources: old.sources)
                } else {
                    value = .null
                }
            }
            let wasOptional = entity.source.relationshipsByName[key]?.isOptional ?? true
            if !relationship.isOptional && (wasOptional || targets.kept.count < targets.all.count) {
                require(name, of: entity, column: column)
            }
            return value
        }

        /// The URI a to-one leading to another store's objects holds: the old column's, which
        /// must have led there too, as the objects of the other store keep their IDs.
        private mutating func reference(_ name: String, of entity: InPlaceMapping.Entity, column: String)
            throws(InPlaceMapping.Declined) -> Value
        {
            guard let relationship = entity.destination.relationshipsByName[name] else { return .null }
            guard let key = entity.relationships[name] else {
                if !relationship.isOptional { require(name, of: entity, column: column) }
                return .null
            }
            guard let old = oldColumn({ .reference(entity: $0, name: $1) }, key, of: entity.source) else {
                throw InPlaceMapping.Declined(
                    description: "'\(entity.source.name).\(key)' did not lead to another store's objects")
            }
            if !relationship.isOptional && entity.source.relationshipsByName[key]?.isOptional != false {
                require(name, of: entity, column: column)
            }
            return Value(sql: old.name, sources: old.sources)
        }

        /// The new entity number of the object a to-one holds, for destinations with sub-entities.
        private func toOneEntity(_ name: String, of entity: InPlaceMapping.Entity) -> Value {
            guard let key = entity.relationships[name],
                let keyColumn = oldColumn({ .toOne(entity: $0, name: $1) }, key, of: entity.source)
            else { return .null }
            let targets = targets(of: key, in: entity.source)
            let renumbered = targets.kept.compactMap { old -> (Int64, Int64)? in
                guard let made = change.mapping.entitiesBySource[old],
                    let from = change.source.entityNumbers[old],
                    let to = change.destination.entityNumbers[made.destination.name]
                else { return nil }
                return (from, to)
            }
            guard let entityColumn = oldColumn({ .toOneEntity(entity: $0, name: $1) }, key, of: entity.source) else {
                guard let (_, number) = renumbered.first else { return .null }
                return Value(
                    sql: "CASE WHEN \(keyColumn.name) IS NOT NULL THEN \(number) END", sources: keyColumn.sources)
            }
            let cases = renumbered.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ")
            return Value(
                sql: cases.isEmpty ? "NULL" : "CASE \(entityColumn.name) \(cases) END", sources: entityColumn.sources)
        }

        /// The old column keeping the order of the rows in the ordered to-many inverse.
        private func order(_ name: String, of entity: InPlaceMapping.Entity) throws(InPlaceMapping.Declined) -> Value {
            guard let key = entity.relationships[name] else { return .null }
            guard let old = oldColumn({ .order(entity: $0, name: $1) }, key, of: entity.source) else {
                throw InPlaceMapping.Declined(
                    description: "the order '\(entity.destination.name).\(name)' keeps is not stored in the source")
            }
            return Value(sql: old.name, sources: old.sources)
        }

        /// The old entities whose objects the old to-one `key` may hold, and those of them that are kept.
        private func targets(of key: String, in entity: EntitySchema) -> (all: [String], kept: [String]) {
            guard
                let target = entity.relationshipsByName[key].flatMap({
                    change.sourceModel.entitiesByName[$0.destinationEntityName]
                })
            else { return ([], []) }
            let all = ([target.name] + target.descendantNames).filter {
                change.sourceModel.entitiesByName[$0]?.description.isAbstract == false
            }
            return (all, all.filter { change.mapping.entitiesBySource[$0] != nil })
        }

        /// `value` as an SQL literal, as the store writes it.
        private func literal(_ value: AttributeValue) throws(InPlaceMapping.Declined) -> Value {
            let encoded = SQLiteValueCodec.encode(value)
            if case .null = encoded { return .null }
            if case .text(let text) = encoded, text.contains("\0") {
                throw InPlaceMapping.Declined(description: "a text constant holds a NUL character")
            }
            guard let sql = encoded.sqlLiteral else {
                throw InPlaceMapping.Declined(description: "\(value) has no SQL literal")
            }
            return Value(sql: sql, sources: nil)
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
