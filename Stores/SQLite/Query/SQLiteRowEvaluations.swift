import Strata

/// What the `strata_evaluate` SQL function works out row by row while one statement runs:
/// predicate parts and batch-update expressions that have no SQL form but read only the
/// entity's attributes (``FetchPredicate/plainKeys``). The core's evaluator works them out
/// from the row's columns, one ``FetchEvaluation`` serving the whole statement, so SQLite
/// filters, counts, orders and pages by them exactly as the core would (docs/SQLITE.md,
/// "Predicates").
///
/// `strata_evaluate(n, column…)` evaluates the `n`th item with the columns of its attributes,
/// in order. A connection evaluates the items of the statement it runs
/// (``SQLiteConnection/evaluating(_:_:)``).
final class SQLiteRowEvaluations {
    /// An attribute an item reads: its key, type, name with its entity's (`Book.price`) and
    /// column's name (`ZBOOK.ZPRICE`), and the SQL reading the column.
    struct Attribute {
        let key: String
        let type: AttributeType
        let qualifiedName: String
        let storedName: String
        let sql: String
    }

    /// What an item works out.
    enum Body {
        /// Whether the predicate holds: 1 or 0.
        case predicate(FetchPredicate)
        /// The new value of the attribute `key` of `type`, null only when `isOptional`.
        case value(FetchExpression, key: String, type: AttributeType, isOptional: Bool)
    }

    /// Why a statement stopped in `strata_evaluate`.
    enum Failure: Error {
        /// The core's evaluator failed, as it would have in memory.
        case evaluation(FetchPredicateError)
        /// A column holds a value its attribute's type cannot have.
        case corrupt(column: String, value: SQLiteValue, attribute: String, type: AttributeType)
        /// A batch update's value does not fit its attribute.
        case unfit(key: String, value: AttributeValue)
    }

    /// A connection's evaluations of the statement it runs, if any.
    final class Slot {
        var current: SQLiteRowEvaluations?
    }

    /// One item; a class, so that reading it for a row copies nothing.
    private final class Item {
        /// ``Body``, with a computed value's expression prepared for the rows.
        enum Work {
            case predicate(FetchPredicate)
            case value(PreparedExpression, key: String, type: AttributeType, isOptional: Bool)
        }

        let work: Work
        let attributes: [Attribute]
        /// The attributes' keys, in order.
        let keys: [String]

        init(work: Work, attributes: [Attribute], keys: [String]) {
            self.work = work
            self.attributes = attributes
            self.keys = keys
        }
    }

    private var items: [Item] = []
    private let evaluation = FetchEvaluation()
    /// The failure that stopped the statement, if any.
    private(set) var failure: Failure?

    /// The name of the SQL function.
    static let functionName = "strata_evaluate"

    /// Whether there is nothing to evaluate.
    var isEmpty: Bool { items.isEmpty }

    /// The predicates rows are tested against, in the order of their calls; each may be an
    /// `AND` of several parts.
    var predicates: [FetchPredicate] {
        items.compactMap { item in
            guard case .predicate(let predicate) = item.work else { return nil }
            return predicate
        }
    }

    /// Adds `body`, reading `attributes`, and returns the SQL calling it.
    func call(_ body: Body, reading attributes: [Attribute]) -> String {
        let keys = attributes.map(\.key)
        let work: Item.Work
        switch body {
        case .predicate(let predicate):
            work = .predicate(predicate)
        case .value(let expression, let key, let type, let isOptional):
            work = .value(evaluation.prepare(expression, keys: keys), key: key, type: type, isOptional: isOptional)
        }
        items.append(Item(work: work, attributes: attributes, keys: keys))
        let arguments = ["\(items.count - 1)"] + attributes.map(\.sql)
        return "\(Self.functionName)(\(arguments.joined(separator: ", ")))"
    }

    /// `strata_evaluate`'s result for `arguments`: the item's number, then its columns.
    func evaluate(_ arguments: SQLiteFunctionArguments) throws(SQLiteFunctionFailure) -> SQLiteValue {
        guard case .integer(let number)? = arguments.first, items.indices.contains(Int(number)),
            arguments.count == items[Int(number)].attributes.count + 1
        else { throw SQLiteFunctionFailure(message: "\(Self.functionName) was called with unknown arguments.") }
        let item = items[Int(number)]
        var values: [AttributeValue] = []
        values.reserveCapacity(item.attributes.count)
        for (attribute, stored) in zip(item.attributes, arguments.dropFirst()) {
            guard let value = SQLiteValueCodec.decode(stored, as: attribute.type) else {
                throw stop(
                    .corrupt(
                        column: attribute.storedName, value: stored, attribute: attribute.qualifiedName,
                        type: attribute.type))
            }
            values.append(value)
        }
        switch item.work {
        case .predicate(let predicate):
            let holds = try evaluated { () throws(FetchPredicateError) in
                try evaluation.holds(predicate, keys: item.keys, values: values)
            }
            return .integer(holds ? 1 : 0)
        case .value(let prepared, let key, let type, let isOptional):
            let value = try evaluated { () throws(FetchPredicateError) in try prepared.value(with: values) }
            guard let kept = type.coerce(value), isOptional || !kept.isNull else {
                throw stop(.unfit(key: key, value: value))
            }
            return SQLiteValueCodec.encode(kept)
        }
    }

    /// The result of `body`, the core evaluator's work, or the failure that stops the statement.
    private func evaluated<T>(_ body: () throws(FetchPredicateError) -> T) throws(SQLiteFunctionFailure) -> T {
        do {
            return try body()
        } catch {
            throw stop(.evaluation(error))
        }
    }

    /// Records `failure` and returns the SQL function's failure for it.
    private func stop(_ failure: Failure) -> SQLiteFunctionFailure {
        self.failure = failure
        return SQLiteFunctionFailure(message: "\(Self.functionName) stopped: \(failure)")
    }
}

@available(*, unavailable) extension SQLiteRowEvaluations: Sendable {}

extension SQLiteConnection {
    /// Runs `body` with `evaluations` answering this connection's `strata_evaluate` calls.
    func evaluating<T>(_ evaluations: SQLiteRowEvaluations?, _ body: () throws -> T) rethrows -> T {
        guard let evaluations, !evaluations.isEmpty else { return try body() }
        rowEvaluations.current = evaluations
        defer { rowEvaluations.current = nil }
        return try body()
    }
}
