import Foundation
import Strata

extension SQLiteStore {
    /// Answers `fetch` with one `SELECT` of the columns it asks for: grouped, distinct and
    /// aggregated in SQL, rows in the order of their first object through `ROW_NUMBER()`. `nil`
    /// (the core computes the rows) when part of the predicate or the sort has no SQL form, or a
    /// column is not one SQL gives exactly as the core would: `min` and `max` only of numbers
    /// and dates, `sum` and `average` only of integers, no transformable attribute.
    public func executeDictionaryFetch(_ fetch: StoreDictionaryFetch) throws -> [[String: AttributeValue]]? {
        let entity = try entitySchema(named: fetch.entityName)
        let table = try table(of: entity.name)
        let reader = rowReader(of: entity, in: table)
        var translator = SQLitePredicateTranslator(store: self, entity: entity, table: table)
        let (conditions, remaining) = selection(
            of: entity, includingSubentities: fetch.includesSubentities, in: table, where: fetch.predicate,
            translator: &translator)
        guard remaining.isEmpty else { return nil }
        guard let orderTerms = translator.orderTerms(for: fetch.sortDescriptors) else { return nil }
        var outputs: [SQLiteDictionaryColumn] = []
        for column in fetch.columns {
            guard let output = SQLiteDictionaryColumn(column, entity: entity, reader: reader, table: table) else {
                return nil
            }
            outputs.append(output)
        }
        guard !outputs.isEmpty else { return nil }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let order = (orderTerms + ["t0.Z_PK"]).joined(separator: ", ")
        let limit = fetch.fetchLimit.flatMap { $0 == 0 ? nil : max($0, 0) } ?? -1
        let page = " LIMIT \(limit) OFFSET \(max(fetch.fetchOffset, 0))"
        let selectList = outputs.flatMap(\.expressions).joined(separator: ", ")
        let sql: String
        if fetch.groupBy == nil && !fetch.returnsDistinctResults {
            sql = "SELECT \(selectList) FROM \(table.name) t0\(whereClause) ORDER BY \(order)\(page)"
        } else {
            var groupColumns: [String] = []
            if let names = fetch.groupBy {
                for name in names {
                    guard let attribute = entity.attributesByName[name], !attribute.storesExternally,
                        let index = reader.attributeIndexes[name]
                    else { return nil }
                    let type = attribute.type
                    groupColumns.append(SQLiteDictionaryColumn.grouping("t0.\(table.columns[index].name)", type))
                }
            } else {
                groupColumns = outputs.flatMap(\.groupings)
            }
            let grouping = groupColumns.isEmpty ? "" : " GROUP BY " + groupColumns.joined(separator: ", ")
            sql =
                "SELECT \(selectList) FROM (SELECT t0.*, ROW_NUMBER() OVER (ORDER BY \(order)) AS Z_ROWNUM "
                + "FROM \(table.name) t0\(whereClause)) t0\(grouping) ORDER BY min(t0.Z_ROWNUM)\(page)"
        }
        let parameters = translator.parameters
        do {
            return try read("fetching dictionaries of \(entity.name)", evaluating: translator.rowEvaluations) {
                connection in
                trace.explain(sql, parameters, on: connection)
                return try connection.statement(sql).rowsThrowing(parameters) { statement in
                    var row: [String: AttributeValue] = [:]
                    var position = 0
                    for output in outputs {
                        let values = (position..<position + output.expressions.count).map { statement.value(at: $0) }
                        position += output.expressions.count
                        row[output.name] = try output.value(from: values, store: self)
                    }
                    return row
                }
            }
        } catch let error as StoreError where error.message.contains("integer overflow") {
            // A sum past Int64: the core adds it up as a decimal.
            return nil
        }
    }
}

/// One value of a dictionary row: the SQL expressions it is read from and how.
private struct SQLiteDictionaryColumn {
    private enum Reading {
        case attribute(AttributeType)
        case toOne(destinationEntityNumber: Int64?)
        /// A to-one leading to another store's objects, whose column holds the object's URI.
        case reference
        case count, sum, average
    }

    let name: String
    let expressions: [String]
    private let reading: Reading

    /// The expressions that tell this column's values apart as the core's equality does.
    var groupings: [String] {
        guard case .attribute(let type) = reading, expressions.count == 1 else { return expressions }
        return [Self.grouping(expressions[0], type)]
    }

    /// The expression that tells values of `column`, of `type`, apart as the core's equality
    /// does: a real's -0 (kept as bytes) equals 0, and NaN equals NaN but not null.
    static func grouping(_ column: String, _ type: AttributeType) -> String {
        guard [.double, .float, .date].contains(type) else { return column }
        let real = "\(SQLiteStrataFunctions.real)(\(column))"
        return "CASE WHEN \(column) IS NULL THEN NULL WHEN \(real) IS NULL THEN 'NaN' ELSE \(real) END"
    }

    init?(
        _ column: StoreDictionaryFetch.Column, entity: EntitySchema, reader: SQLiteRowReader,
        table: SQLiteSchema.EntityTable
    ) {
        switch column {
        case .property(let key):
            if let attribute = entity.attributesByName[key] {
                guard attribute.type != .transformable, !attribute.storesExternally,
                    let index = reader.attributeIndexes[key]
                else { return nil }
                (name, expressions, reading) = (key, ["t0.\(table.columns[index].name)"], .attribute(attribute.type))
                return
            }
            guard let toOne = reader.toOnesByName[key], let index = toOne.index else { return nil }
            let entityColumn = toOne.entityIndex.map { ["t0.\(table.columns[$0].name)"] } ?? []
            (name, expressions) = (key, ["t0.\(table.columns[index].name)"] + entityColumn)
            reading =
                toOne.isReference
                ? .reference
                : .toOne(destinationEntityNumber: toOne.entityIndex == nil ? toOne.destinationEntityNumber : nil)
        case .aggregate(let function, let attribute, let label):
            guard let type = entity.attributesByName[attribute]?.type, let index = reader.attributeIndexes[attribute]
            else { return nil }
            let column = "t0.\(table.columns[index].name)"
            let isInteger = [.integer16, .integer32, .integer64].contains(type)
            name = label
            switch function {
            case .count: (expressions, reading) = (["count(\(column))"], .count)
            case .min, .max:
                // Reals go through `strata_real`, which reads -0 kept as bytes and leaves NaN out,
                // as the core's `min:` and `max:` do.
                let isReal = [.double, .float, .date].contains(type)
                guard isInteger || isReal else { return nil }
                let argument = isReal ? "\(SQLiteStrataFunctions.real)(\(column))" : column
                (expressions, reading) = (["\(function.rawValue)(\(argument))"], .attribute(type))
            case .sum:
                guard isInteger else { return nil }
                (expressions, reading) = (["sum(\(column))"], .sum)
            case .average:
                guard isInteger else { return nil }
                (expressions, reading) = (["sum(\(column))", "count(\(column))"], .average)
            }
        }
    }

    /// The value `values` (this column's expressions' results) give.
    func value(from values: [SQLiteValue], store: SQLiteStore) throws -> AttributeValue {
        switch reading {
        case .attribute(let type):
            guard let value = SQLiteValueCodec.decode(values[0], as: type) else {
                throw StoreError(
                    code: .corrupt,
                    message: "\(store.storeName) holds \(values[0]) for '\(name)', which is not a \(type).")
            }
            return value
        case .toOne(let destinationEntityNumber):
            guard case .integer = values[0] else { return .null }
            let number = destinationEntityNumber.map(SQLiteValue.integer) ?? values[1]
            return .objectID(try store.objectID(primaryKey: values[0], entityNumber: number))
        case .reference:
            guard case .text(let uri) = values[0] else { return .null }
            return .objectID(try store.referencedObjectID(uri))
        case .count:
            guard case .integer(let count) = values[0] else { return .integer64(0) }
            return .integer64(count)
        case .sum:
            guard case .integer(let sum) = values[0] else { return .integer64(0) }
            return .integer64(sum)
        case .average:
            guard case .integer(let sum) = values[0], case .integer(let count) = values[1], count > 0 else {
                return .null
            }
            return .decimal(Decimal(sum) / Decimal(count))
        }
    }
}
