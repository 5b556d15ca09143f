import Strata

extension SQLiteSchema {
    /// The triggers Core Data writes for each derived count (`pages.@count`, `count:(pages)`) of
    /// a to-many relationship kept by a foreign key, laid out and named as Core Data names them
    /// (`Z_DA_<table>_<Entity>_<attribute>_<role>`): the destination's inserts, moves and
    /// deletions add to and take from the count, and a new source row counts its members. Other
    /// derivations have no trigger: the context computes them and the store writes them.
    func derivationTriggerStatements(model: ModelSchema) -> [String] {
        var statements: [String] = []
        for entity in model.entities where tableOfEntity[entity.name] != nil {
            for attribute in entity.description.attributes where !attribute.isTransient {
                guard let text = attribute.derivationExpression,
                    let relationshipName = Self.countedRelationship(in: text),
                    let relationship = entity.relationshipsByName[relationshipName], relationship.isToMany,
                    case .foreignKey(let members, let key, _, _)? = toManyStorage(
                        of: relationship, in: entity, model: model),
                    let table = tableOfEntity[entity.name],
                    let countIndex = columnIndex(.attribute(entity: entity.name, name: attribute.name), in: table)
                else { continue }
                statements += Self.countTriggers(
                    entity: entity.name, attribute: attribute.name, table: table.name,
                    column: table.columns[countIndex].name, members: members.name, key: key)
            }
        }
        return statements
    }

    /// The to-many relationship a derivation counts, when it is a count and nothing else.
    private static func countedRelationship(in text: String) -> String? {
        switch try? FetchExpression(format: text) {
        case .keyPath(let path)? where path.hasSuffix(".@count") && path.split(separator: ".").count == 2:
            String(path.dropLast(".@count".count))
        case .function("count:", let arguments)? where arguments.count == 1:
            if case .keyPath(let path) = arguments[0], !path.contains(".") { path } else { nil }
        default: nil
        }
    }

    /// Core Data's five triggers keeping `table.column`, the count of `members` rows whose `key`
    /// holds a row's primary key.
    private static func countTriggers(
        entity: String, attribute: String, table: String, column: String, members: String, key: String
    ) -> [String] {
        let name = "Z_DA_\(members)_\(entity)_\(attribute)_PARAMETER"
        func report(_ row: String, function: String = "NSCoreDataDATriggerUpdatedAffectedObjectValue") -> String {
            "SELECT \(function)('\(table)', Z_ENT, Z_PK, '\(attribute)', \(column)) FROM \(table) WHERE Z_PK = \(row);"
        }
        /// A trigger adding `change` ("+ 1", "- 1") to the count of the row `row` refers to.
        func adjust(_ role: String, _ event: String, _ row: String, _ change: String, orZero: Bool = false) -> String {
            let current = orZero ? "IFNULL(\(column), 0)" : column
            return "CREATE TRIGGER \(name)_\(role) AFTER \(event) ON \(members) FOR EACH ROW WHEN (\(row) NOT NULL) "
                + "BEGIN UPDATE \(table) SET \(column) = \(current) \(change) WHERE Z_PK = \(row); \(report(row)) END"
        }
        return [
            adjust("INSERT", "INSERT", "NEW.\(key)", "+ 1", orZero: true),
            adjust("UPDATE_INCREMENT", "UPDATE OF \(key)", "NEW.\(key)", "+ 1"),
            adjust("UPDATE_DECREMENT", "UPDATE OF \(key)", "OLD.\(key)", "- 1"),
            adjust("DELETE", "DELETE", "OLD.\(key)", "- 1"),
            "CREATE TRIGGER Z_DA_\(table)_\(entity)_\(attribute)_SOURCE_INSERT AFTER INSERT ON \(table) FOR EACH ROW "
                + "BEGIN UPDATE \(table) SET \(column) = (SELECT IFNULL(COUNT(\(key)), 0) FROM \(members) "
                + "WHERE \(key) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; "
                + "\(report("NEW.Z_PK", function: "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue")) END",
        ]
    }
}
