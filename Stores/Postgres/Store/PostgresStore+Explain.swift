import Strata

extension PostgresStore: FetchExplaining {
    /// The statement ``execute(_:)`` runs for `request`, with its bound values, and
    /// PostgreSQL's `EXPLAIN` of it; the parts evaluated in memory.
    public func explain(_ request: StoreFetchRequest) throws -> StoreFetchExplanation {
        let statement = try fetchStatement(for: request)
        let plan = try withConnection { connection in
            let rows = try connection.execute("EXPLAIN " + statement.sql, statement.parameters)
            return (0..<rows.rowCount).map { row in
                if case .text(let line)? = rows.value(row, 0) { line } else { "" }
            }
        }
        let bound = statement.parameters.enumerated().map { "$\($0.offset + 1) = \($0.element.literal)" }
        return StoreFetchExplanation(
            steps: [statement.sql + (bound.isEmpty ? "" : " -- bound: " + bound.joined(separator: ", "))],
            enginePlan: plan, evaluatedInMemory: statement.residual, sortsInMemory: statement.isInMemory)
    }
}

extension PostgresValue {
    /// The value as it reads in a statement's text, for showing bound values.
    fileprivate var literal: String {
        switch self {
        case .null: "NULL"
        case .smallint(let number): String(number)
        case .integer(let number): String(number)
        case .bigint(let number): String(number)
        case .real(let number): "\(number)"
        case .double(let number): "\(number)"
        case .boolean(let flag): flag ? "true" : "false"
        case .bytes(let bytes): "'\\x" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
        case .text(let text), .numeric(let text), .array(let text):
            "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .uuid(let uuid): "'\(uuid.uuidString.lowercased())'"
        }
    }
}
