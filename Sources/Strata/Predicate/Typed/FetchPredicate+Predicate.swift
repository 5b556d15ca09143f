import Foundation

extension FetchPredicate {
    /// `predicate`, a Foundation `Predicate` written with `#Predicate`, in Strata's grammar:
    /// exactly the tree its format-string twin parses to, so stores push it down alike.
    ///
    /// ```swift
    /// let long = try FetchPredicate(#Predicate<Book> { $0.pages > 100 && $0.author?.name == "Ada" })
    /// // the same as try FetchPredicate(format: "pages > 100 AND author.name == %@", "Ada")
    /// ```
    ///
    /// It translates comparisons, `==`, `!=`, `&&`, `||`, `!`, arithmetic (`+ - *`, `/` of
    /// floating-point numbers, and of integers as `trunc:(a / b)`, `%`), unary minus, optional
    /// chaining, `!`, `??`, `nil`, conditionals (`a ? b : c`), `starts(with:)` and `contains`
    /// of strings, `contains(_:)` of a constant collection (`IN`) and of a to-many relationship,
    /// `contains(where:)` and `allSatisfy(_:)` of a to-many relationship (as `SUBQUERY`), and
    /// `count` and `isEmpty` of a to-many relationship. Values captured from the surrounding
    /// code become constants; a managed object stands for its ID.
    ///
    /// - Throws: `FetchPredicateError` with code `.untranslatable` naming the part that has no
    ///   form in the grammar: a method the grammar lacks, or a key path that is not a single
    ///   property. Nothing falls back to evaluating every object.
    public init<Object>(_ predicate: Predicate<Object>) throws(FetchPredicateError) {
        var translation = TypedPredicateTranslation(root: predicate.variable.key)
        self = try translation.predicate(predicate.expression)
    }
}

/// A part of a typed predicate in Strata's grammar: a predicate or a value.
enum TypedPredicatePart {
    case predicate(FetchPredicate)
    case expression(FetchExpression)
}

/// A `PredicateExpressions` type that has a form in Strata's grammar.
protocol TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart
}

/// The state of one translation: what each of the predicate's variables stands for.
struct TypedPredicateTranslation {
    private var variables: [PredicateExpressions.VariableID: FetchExpression]
    private var subqueryCount = 0

    init(root: PredicateExpressions.VariableID) {
        variables = [root: .evaluatedObject]
    }

    /// `expression` as a predicate; a value `v` becomes `v == YES`.
    mutating func predicate(_ expression: some PredicateExpression) throws(FetchPredicateError) -> FetchPredicate {
        switch try part(expression) {
        case .predicate(let predicate): return predicate
        case .expression(let value): return .comparison(ComparisonPredicate(value, .equalTo, .constant(.boolean(true))))
        }
    }

    /// `expression` as a value; a predicate `p` becomes `TERNARY(p, YES, NO)`.
    mutating func expression(_ expression: some PredicateExpression) throws(FetchPredicateError) -> FetchExpression {
        switch try part(expression) {
        case .expression(let value): return value
        case .predicate(let predicate):
            return .conditional(predicate, then: .constant(.boolean(true)), else: .constant(.boolean(false)))
        }
    }

    /// `expression` as a constant when it reads no variable (a value captured from the
    /// surrounding code, or read from one: `config.maximum`), else translated.
    mutating func part(_ expression: some PredicateExpression) throws(FetchPredicateError) -> TypedPredicatePart {
        if !(expression is any VariableExpression), let value = try? expression.evaluate(PredicateBindings()),
            let constant = Self.constant(value)
        {
            return .expression(constant)
        }
        if let translatable = expression as? any TypedPredicateTranslatable {
            return try translatable.translate(&self)
        }
        throw Self.untranslatable(expression)
    }

    /// What `variable` stands for.
    func value(of variable: PredicateExpressions.VariableID) throws(FetchPredicateError) -> FetchExpression {
        guard let value = variables[variable] else {
            throw FetchPredicateError(
                code: .untranslatable, message: "A typed predicate uses a variable it never binds.")
        }
        return value
    }

    /// Makes `variable` stand for `value` in what is translated next.
    mutating func bind(_ variable: PredicateExpressions.VariableID, to value: FetchExpression) {
        variables[variable] = value
    }

    /// A new `SUBQUERY` variable, bound to `variable`.
    mutating func subqueryVariable(for variable: PredicateExpressions.VariableID) -> String {
        subqueryCount += 1
        let name = "v\(subqueryCount)"
        variables[variable] = .variable(name)
        return name
    }

    /// `value`, captured from the surrounding code, as a constant; `nil` when it has no form.
    static func constant(_ value: Any) -> FetchExpression? {
        switch value {
        case let object as ManagedObject: return .constant(.objectID(object.objectID))
        case let convertible as any AttributeValueConvertible: return .constant(convertible.attributeValue)
        case let number as Int8: return .constant(.integer16(Int16(number)))
        case let number as UInt8: return .constant(.integer16(Int16(number)))
        case let number as UInt16: return .constant(.integer32(Int32(number)))
        case let number as UInt32: return .constant(.integer64(Int64(number)))
        case let character as Character: return .constant(.string(String(character)))
        case let collection as any Collection:
            var elements: [FetchExpression] = []
            for element in collection {
                guard let constant = constant(element) else { return nil }
                elements.append(constant)
            }
            return .aggregate(elements)
        default:
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { return nil }
            return mirror.children.first.map { constant($0.value) } ?? .constant(.null)
        }
    }

    /// The error for a part of a typed predicate that has no form in the grammar.
    static func untranslatable(_ expression: some PredicateExpression, _ reason: String = "") -> FetchPredicateError {
        let name = String(describing: type(of: expression)).replacingOccurrences(of: "PredicateExpressions.", with: "")
        return FetchPredicateError(
            code: .untranslatable,
            message: "A typed predicate holds \(name.prefix(120)), which has no form in Strata's predicate grammar"
                + (reason.isEmpty ? "." : ": \(reason)."))
    }
}

/// A predicate's variable, which is never a constant.
protocol VariableExpression {}
extension PredicateExpressions.Variable: VariableExpression {}
