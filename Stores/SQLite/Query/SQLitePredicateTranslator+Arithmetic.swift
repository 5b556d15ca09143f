import Strata

extension SQLitePredicateTranslator {
    /// Arithmetic that SQL computes exactly as the core's evaluator does: `+`, `-`, `*` and `/`
    /// where one operand of each operation is a real (a `double` attribute or constant), so
    /// that both compute in IEEE 754 doubles; integer attributes and constants take part
    /// through a real operand. The SQL is right only for rows where each real attribute holds
    /// a real and each integer attribute an integer (`guards`: operators rather than
    /// `typeof()`, whose call costs more than the arithmetic; a real column keeps NaN and
    /// -0 as bytes, which compare above every number), and where the result is neither null
    /// (NaN, or a division by zero in SQL) nor zero (SQLite keeps no sign of zero); elsewhere
    /// the caller falls back to the evaluator.
    struct ExactArithmetic {
        var sql: String
        var guards: [String]
        var constants: [SQLiteValue]
        /// Whether the result is a real; otherwise an integer.
        var isReal: Bool
    }

    /// `expression` as ``ExactArithmetic``; `nil` when some part of it has no exact SQL form.
    func exactArithmetic(of expression: FetchExpression) -> ExactArithmetic? {
        switch expression {
        case .constant(.double(let number)):
            return ExactArithmetic(sql: "?", guards: [], constants: [.real(number)], isReal: true)
        case .constant(let value) where [.integer16, .integer32, .integer64].contains(value.attributeType):
            guard let number = Int64(attributeValue: value) else { return nil }
            return ExactArithmetic(sql: "?", guards: [], constants: [.integer(number)], isReal: false)
        case .keyPath(let key):
            guard let attribute = rowAttribute(key) else { return nil }
            let column = attribute.sql
            switch attribute.type {
            case .double:
                return ExactArithmetic(sql: column, guards: ["\(column) <= 9e999"], constants: [], isReal: true)
            case .integer16, .integer32, .integer64:
                return ExactArithmetic(
                    sql: column, guards: ["\(column) <= 9e999 AND CAST(\(column) AS INTEGER) = \(column)"],
                    constants: [], isReal: false)
            default: return nil
            }
        case .function(let name, let arguments) where arguments.count == 2:
            let operators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/"]
            guard let sqlOperator = operators[name], let a = exactArithmetic(of: arguments[0]),
                let b = exactArithmetic(of: arguments[1]), a.isReal || b.isReal
            else { return nil }
            return ExactArithmetic(
                sql: "(\(a.sql) \(sqlOperator) \(b.sql))", guards: a.guards + b.guards,
                constants: a.constants + b.constants,
                isReal: true)
        default:
            return nil
        }
    }
}
