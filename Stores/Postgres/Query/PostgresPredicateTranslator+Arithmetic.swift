import Strata

extension PostgresPredicateTranslator {
    /// A number SQL computes as the core's evaluator does, or fails to compute: `+`, `-`, `*`
    /// and `/` of the entity's number attributes and number constants. Where a `double` or
    /// `float` takes part, both operands compute as `float8`, IEEE 754 doubles rounded as
    /// Swift rounds them (integers and floats convert exactly as the evaluator converts them);
    /// otherwise integers compute as `int8`, which is exact, and dividing two integers (a
    /// decimal to the evaluator) does not translate. Where the evaluator's answer differs —
    /// an integer overflow (a decimal), a double that overflows or underflows (infinity or
    /// zero), a division by zero (infinity or NaN) — PostgreSQL raises a data exception
    /// (SQLSTATE class 22) instead of giving another answer, and the caller falls back to the
    /// evaluator. Null operands give null, as to the evaluator.
    struct ExactArithmetic {
        let sql: String
        /// Whether the result is a `double`; otherwise an integer.
        let isReal: Bool
        /// Whether the result may be null: an operand is an optional attribute.
        let mayBeNull: Bool

        /// The SQL as a `float8`.
        var realSQL: String { isReal ? sql : "(\(sql))::float8" }
    }

    /// The SQL operator of each arithmetic function of predicates.
    static let arithmeticOperators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/"]

    /// `expression` as ``ExactArithmetic``, binding its constants; `nil` when some part has no
    /// exact SQL form.
    mutating func exactArithmetic(of expression: FetchExpression) -> ExactArithmetic? {
        switch expression {
        case .constant(.double(let number)):
            return ExactArithmetic(sql: bind(.double(number)) + "::float8", isReal: true, mayBeNull: false)
        case .constant(.float(let number)):
            return ExactArithmetic(sql: bind(.double(Double(number))) + "::float8", isReal: true, mayBeNull: false)
        case .constant(let value):
            guard let number = Int64(attributeValue: value),
                [.integer16, .integer32, .integer64].contains(value.attributeType)
            else { return nil }
            return ExactArithmetic(sql: bind(.bigint(number)) + "::int8", isReal: false, mayBeNull: false)
        case .keyPath(let key):
            guard !key.contains("."), let attribute = entity.attributesByName[key], !attribute.isTransient,
                let name = layout.columnName(of: key, entity: entity.name, model: model)
            else { return nil }
            let column = rowPrefix + PostgresIdentifier.quoted(name)
            let nullable = attribute.isOptional
            switch attribute.type {
            case .double: return ExactArithmetic(sql: column, isReal: true, mayBeNull: nullable)
            case .float: return ExactArithmetic(sql: column + "::float8", isReal: true, mayBeNull: nullable)
            case .integer16, .integer32, .integer64:
                return ExactArithmetic(sql: column + "::int8", isReal: false, mayBeNull: nullable)
            default: return nil
            }
        case .function(let name, let arguments) where arguments.count == 2:
            guard let sqlOperator = Self.arithmeticOperators[name], let a = exactArithmetic(of: arguments[0]),
                let b = exactArithmetic(of: arguments[1])
            else { return nil }
            let mayBeNull = a.mayBeNull || b.mayBeNull
            guard a.isReal || b.isReal else {
                guard sqlOperator != "/" else { return nil }
                return ExactArithmetic(sql: "(\(a.sql) \(sqlOperator) \(b.sql))", isReal: false, mayBeNull: mayBeNull)
            }
            return ExactArithmetic(
                sql: "(\(a.realSQL) \(sqlOperator) \(b.realSQL))", isReal: true, mayBeNull: mayBeNull)
        default:
            return nil
        }
    }
}

extension PostgresError {
    /// Whether the server refused to compute a value (SQLSTATE class 22, a data exception: an
    /// overflow, a division by zero, a value out of its column's range), where the core's
    /// evaluator gives an answer of its own.
    var isDataException: Bool { sqlState.hasPrefix("22") }
}
