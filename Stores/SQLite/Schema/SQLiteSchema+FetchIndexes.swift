import Foundation
import Strata

extension SQLiteSchema {
    /// An R-tree fetch index, laid out as Core Data lays it out: a virtual table
    /// `Z_<Entity>_<index>` of `rtree` with the primary key and a minimum and a maximum column
    /// per element, kept in step with the entity's table by three triggers.
    struct RTreeIndex: Sendable, Hashable {
        /// One indexed attribute and its column in the entity's table.
        struct Dimension: Sendable, Hashable {
            let attribute: String
            let column: String
        }

        /// The virtual table's name.
        let name: String
        /// The fetch index's name in the model, which `indexed:by:` gives.
        let fetchIndexName: String
        /// The entity declaring the index; its objects and its sub-entities' are indexed.
        let entityName: String
        /// The entity table holding the indexed rows.
        let table: String
        /// The entity numbers whose rows the index holds; empty when it holds the whole table.
        let entityNumbers: [Int64]
        let dimensions: [Dimension]

        /// The virtual table and the triggers keeping it.
        var createStatements: [String] {
            let bounds = dimensions.flatMap { ["\($0.column)_MIN FLOAT", "\($0.column)_MAX FLOAT"] }
            let columns = ["Z_PK"] + dimensions.flatMap { ["\($0.column)_MIN", "\($0.column)_MAX"] }
            let values = ["NEW.Z_PK"] + dimensions.flatMap { ["NEW.\($0.column)", "NEW.\($0.column)"] }
            let upsert =
                "INSERT OR REPLACE INTO \(name) (\(columns.joined(separator: ", "))) "
                + "VALUES (\(values.joined(separator: ", ")));"
            func kinds(_ row: String) -> String {
                entityNumbers.isEmpty
                    ? "" : " WHEN \(row).Z_ENT IN (\(entityNumbers.map(String.init).joined(separator: ", ")))"
            }
            let indexed = dimensions.map(\.column).joined(separator: ", ")
            return [
                "CREATE VIRTUAL TABLE \(name) USING RTREE (Z_PK INTEGER PRIMARY KEY, \(bounds.joined(separator: ", ")))",
                "CREATE TRIGGER \(name)_INSERT AFTER INSERT ON \(table) FOR EACH ROW\(kinds("NEW")) BEGIN \(upsert) END",
                "CREATE TRIGGER \(name)_UPDATE AFTER UPDATE OF \(indexed) ON \(table) FOR EACH ROW\(kinds("NEW")) "
                    + "BEGIN \(upsert) END",
                "CREATE TRIGGER \(name)_DELETE AFTER DELETE ON \(table) FOR EACH ROW\(kinds("OLD")) "
                    + "BEGIN DELETE FROM \(name) WHERE Z_PK = OLD.Z_PK; END",
            ]
        }
    }

    /// The fetch indexes the layout's binary indexes leave out: the partial ones, whose
    /// conditions are written in SQL here, and the R-tree ones; with the reason for each index
    /// it does not build.
    static func fetchIndexes(
        of layout: SQLiteSchema, schema: ModelSchema
    ) -> (partial: [Index], rTrees: [RTreeIndex], skipped: [String]) {
        var partial: [Index] = []
        var rTrees: [RTreeIndex] = []
        var skipped: [String] = []
        for (entityName, table) in layout.tableOfEntity.sorted(by: { $0.key < $1.key }) {
            guard let entity = schema.entitiesByName[entityName] else { continue }
            for fetchIndex in entity.description.fetchIndexes {
                let place = "'\(entityName).\(fetchIndex.name)'"
                let columns = fetchIndex.elements.map {
                    layout.column(of: $0.propertyName, in: entity, table: table, schema: schema)
                }
                guard columns.allSatisfy({ $0 != nil }) else {
                    skipped.append("\(place) names a property without a column")
                    continue
                }
                if fetchIndex.elements.allSatisfy({ $0.kind == .rTree }) {
                    guard fetchIndex.partialIndexPredicate == nil else {
                        skipped.append("\(place) is a partial R-tree index, which SQLite's R-tree module cannot be")
                        continue
                    }
                    let types = fetchIndex.elements.map { entity.attributesByName[$0.propertyName]?.type }
                    guard types.allSatisfy({ [.integer16, .integer32, .integer64, .double, .float].contains($0) })
                    else {
                        skipped.append(
                            "\(place) has an R-tree element that is not an integer or floating-point attribute")
                        continue
                    }
                    let kinds = [entityName] + entity.descendantNames
                    rTrees.append(
                        RTreeIndex(
                            name: "Z_\(entityName)_\(fetchIndex.name)", fetchIndexName: fetchIndex.name,
                            entityName: entityName, table: table.name,
                            entityNumbers: Set(kinds) == Set(table.entities)
                                ? [] : kinds.compactMap { layout.entityNumbers[$0] }.sorted(),
                            dimensions: zip(fetchIndex.elements, columns).map {
                                RTreeIndex.Dimension(attribute: $0.propertyName, column: $1 ?? "")
                            }))
                    continue
                }
                guard let format = fetchIndex.partialIndexPredicate else { continue }
                guard let condition = partialCondition(format, of: entity, table: table, layout: layout, schema: schema)
                else {
                    skipped.append(
                        "\(place) is a partial index whose predicate has no plain SQL form (only comparisons of "
                            + "attributes of its entity with constants do)")
                    continue
                }
                partial.append(
                    Index(
                        name: "Z_\(entityName)_\(fetchIndex.name)", table: table.name,
                        columns: zip(fetchIndex.elements, columns).map {
                            "\($1 ?? "") COLLATE BINARY \($0.isAscending ? "ASC" : "DESC")"
                        },
                        isUnique: false, condition: condition))
            }
        }
        return (partial, rTrees, skipped)
    }

    /// The column of `entity`'s attribute or to-one `property` in `table`.
    private func column(
        of property: String, in entity: EntitySchema, table: EntityTable, schema: ModelSchema
    ) -> String? {
        let owner = declaringEntity(of: property, in: entity, model: schema)
        let index =
            columnIndex(.attribute(entity: owner, name: property), in: table)
            ?? columnIndex(.toOne(entity: owner, name: property), in: table)
        return index.map { table.columns[$0].name }
    }

    /// The `WHERE` condition of a partial index: `format` translated as a fetch would translate
    /// it, with its constants written in and its columns unqualified, so that SQLite's
    /// planner sees that a fetch's condition implies it. `nil` when the predicate has no such
    /// plain form: it does not translate, reaches other rows, or calls a function.
    private static func partialCondition(
        _ format: String, of entity: EntitySchema, table: EntityTable, layout: SQLiteSchema, schema: ModelSchema
    ) -> String? {
        guard let predicate = try? FetchPredicate(format: format) else { return nil }
        var translator = SQLitePredicateTranslator(
            layout: layout, model: schema, storeIdentifier: "", entity: entity, table: table)
        guard let condition = translator.condition(for: predicate) else { return nil }
        var literals = translator.parameters.makeIterator()
        var sql = ""
        var inQuotes = false
        for character in condition {
            if character == "'" { inQuotes.toggle() }
            guard character == "?", !inQuotes else {
                sql.append(character)
                continue
            }
            guard let value = literals.next(), let literal = value.sqlLiteral else { return nil }
            sql += literal
        }
        // Only the text outside string literals is SQL to check and unqualify.
        var parts = sql.split(separator: "'", omittingEmptySubsequences: false).map(String.init)
        for index in stride(from: 0, to: parts.count, by: 2) {
            let callsOrSubqueries = parts[index].range(
                of: #"[A-Za-z_]\(|SELECT|\bt[1-9]"#, options: .regularExpression)
            guard callsOrSubqueries == nil else { return nil }
            parts[index] = parts[index].replacingOccurrences(of: "t0.", with: "")
        }
        return parts.joined(separator: "'")
    }
}
