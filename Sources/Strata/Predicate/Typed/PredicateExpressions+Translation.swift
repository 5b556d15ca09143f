import Foundation

// How each of Foundation's predicate expressions reads in Strata's grammar: the form the
// format-string parser gives the same condition (docs/PREDICATES.md, "Typed predicates").

extension PredicateExpressions.Variable: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        .expression(try translation.value(of: key))
    }
}

extension PredicateExpressions.KeyPath: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let base = try translation.expression(root)
        if let collection = Root.Output.self as? any ManagedObjectCollection.Type {
            let count = TypedKeyPathName.appending("@count", to: base)
            if keyPath == collection.countKeyPath { return .expression(count) }
            if keyPath == collection.isEmptyKeyPath {
                return .predicate(.comparison(ComparisonPredicate(count, .equalTo, .constant(.integer64(0)))))
            }
        }
        guard let type = Root.Output.self as? ManagedObject.Type, let path = KeyPathProbe.path(of: keyPath, from: type)
        else {
            throw TypedPredicateTranslation.untranslatable(
                self,
                "\(keyPath) is not a managed property (@Managed, @ToOne, @ToMany, @OrderedToMany); of a to-many "
                    + "relationship, count and isEmpty translate")
        }
        return .expression(TypedKeyPathName.appending(path, to: base))
    }
}

extension PredicateExpressions.Value: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        guard let constant = TypedPredicateTranslation.constant(value) else {
            throw TypedPredicateTranslation.untranslatable(self, "\(Output.self) is not a value an attribute holds")
        }
        return .expression(constant)
    }
}

extension PredicateExpressions.NilLiteral: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        .expression(.constant(.null))
    }
}

extension PredicateExpressions.Equal: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        return .predicate(
            .comparison(
                ComparisonPredicate(try translation.expression(lhs), .equalTo, try translation.expression(rhs))))
    }
}

extension PredicateExpressions.NotEqual: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        return .predicate(
            .comparison(
                ComparisonPredicate(try translation.expression(lhs), .notEqualTo, try translation.expression(rhs))))
    }
}

extension PredicateExpressions.Comparison: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let comparison: ComparisonPredicate.Operator =
            switch op {
            case .lessThan: .lessThan
            case .lessThanOrEqual: .lessThanOrEqualTo
            case .greaterThan: .greaterThan
            case .greaterThanOrEqual: .greaterThanOrEqualTo
            }
        return .predicate(
            .comparison(
                ComparisonPredicate(try translation.expression(lhs), comparison, try translation.expression(rhs))))
    }
}

extension PredicateExpressions.Conjunction: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let parts = [try translation.predicate(lhs), try translation.predicate(rhs)]
        return .predicate(.and(parts.flatMap { if case .and(let inner) = $0 { inner } else { [$0] } }))
    }
}

extension PredicateExpressions.Disjunction: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let parts = [try translation.predicate(lhs), try translation.predicate(rhs)]
        return .predicate(.or(parts.flatMap { if case .or(let inner) = $0 { inner } else { [$0] } }))
    }
}

extension PredicateExpressions.Negation: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        .predicate(.not(try translation.predicate(wrapped)))
    }
}

extension PredicateExpressions.Arithmetic: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let function =
            switch op {
            case .add: "add:to:"
            case .subtract: "from:subtract:"
            case .multiply: "multiply:by:"
            }
        return .expression(.function(function, [try translation.expression(lhs), try translation.expression(rhs)]))
    }
}

extension PredicateExpressions.UnaryMinus: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        .expression(.function("from:subtract:", [.constant(.integer64(0)), try translation.expression(wrapped)]))
    }
}

extension PredicateExpressions.FloatDivision: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        .expression(.function("divide:by:", [try translation.expression(lhs), try translation.expression(rhs)]))
    }
}

extension PredicateExpressions.IntDivision: TypedPredicateTranslatable {
    /// Swift's integer division truncates; the grammar's `/` gives the exact quotient.
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let quotient = FetchExpression.function(
            "divide:by:", [try translation.expression(lhs), try translation.expression(rhs)])
        return .expression(.function("trunc:", [quotient]))
    }
}

extension PredicateExpressions.IntRemainder: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        .expression(.function("modulus:by:", [try translation.expression(lhs), try translation.expression(rhs)]))
    }
}

extension PredicateExpressions.ForcedUnwrap: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        .expression(try translation.expression(inner))
    }
}

extension PredicateExpressions.OptionalFlatMap: TypedPredicateTranslatable {
    /// `a?.b`: a key path through a to-one relationship already gives null for an empty one.
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        translation.bind(variable.key, to: try translation.expression(wrapped))
        return try translation.part(transform)
    }
}

extension PredicateExpressions.NilCoalesce: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let value = try translation.expression(lhs)
        return .expression(
            .conditional(
                .comparison(ComparisonPredicate(value, .notEqualTo, .constant(.null))), then: value,
                else: try translation.expression(rhs)))
    }
}

extension PredicateExpressions.Conditional: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        .expression(
            .conditional(
                try translation.predicate(test), then: try translation.expression(trueBranch),
                else: try translation.expression(falseBranch)))
    }
}

extension PredicateExpressions.SequenceContains: TypedPredicateTranslatable {
    /// `{1, 2}.contains(x)` is `x IN {1, 2}`; `books.contains(book)` is `books CONTAINS book`.
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let collection = try translation.expression(sequence)
        let member = try translation.expression(element)
        if case .aggregate = collection {
            return .predicate(.comparison(ComparisonPredicate(member, .in, collection)))
        }
        return .predicate(.comparison(ComparisonPredicate(collection, .contains, member)))
    }
}

extension PredicateExpressions.SequenceContainsWhere: TypedPredicateTranslatable {
    /// `books.contains { $0.pages > 100 }` is `SUBQUERY(books, $v1, $v1.pages > 100).@count > 0`.
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let collection = try translation.expression(sequence)
        let name = translation.subqueryVariable(for: variable.key)
        let subquery = FetchExpression.subquery(
            collection: collection, variable: name, predicate: try translation.predicate(test))
        return .predicate(
            .comparison(ComparisonPredicate(.keyPathOn(subquery, "@count"), .greaterThan, .constant(.integer64(0)))))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TypedPredicateTranslatable {
    /// `books.allSatisfy { $0.pages > 100 }` is
    /// `SUBQUERY(books, $v1, NOT ($v1.pages > 100)).@count == 0`.
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        let collection = try translation.expression(sequence)
        let name = translation.subqueryVariable(for: variable.key)
        let subquery = FetchExpression.subquery(
            collection: collection, variable: name, predicate: .not(try translation.predicate(test)))
        return .predicate(
            .comparison(ComparisonPredicate(.keyPathOn(subquery, "@count"), .equalTo, .constant(.integer64(0)))))
    }
}

extension PredicateExpressions.SequenceStartsWith: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        guard Base.Output.self is any StringProtocol.Type else {
            throw TypedPredicateTranslation.untranslatable(self, "starts(with:) translates for strings only")
        }
        return .predicate(
            .comparison(
                ComparisonPredicate(try translation.expression(base), .beginsWith, try translation.expression(prefix))))
    }
}

extension PredicateExpressions.CollectionContainsCollection: TypedPredicateTranslatable {
    func translate(_ translation: inout TypedPredicateTranslation) throws(FetchPredicateError) -> TypedPredicatePart {
        guard Base.Output.self is any StringProtocol.Type else {
            throw TypedPredicateTranslation.untranslatable(
                self, "contains(_:) of a collection translates for strings only")
        }
        return .predicate(
            .comparison(
                ComparisonPredicate(try translation.expression(base), .contains, try translation.expression(other))))
    }
}

/// A to-many relationship's value: a set or an array of managed objects.
protocol ManagedObjectCollection {
    /// `\Self.count`.
    static var countKeyPath: AnyKeyPath { get }
    /// `\Self.isEmpty`.
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Set: ManagedObjectCollection where Element: ManagedObject {
    static var countKeyPath: AnyKeyPath { setKeyPaths(of: Element.self).count }
    static var isEmptyKeyPath: AnyKeyPath { setKeyPaths(of: Element.self).isEmpty }
}

extension Array: ManagedObjectCollection where Element: ManagedObject {
    static var countKeyPath: AnyKeyPath { arrayKeyPaths(of: Element.self).count }
    static var isEmptyKeyPath: AnyKeyPath { arrayKeyPaths(of: Element.self).isEmpty }
}

/// `\Set<Element>.count` and `\Set<Element>.isEmpty`.
private func setKeyPaths<Element: Hashable>(of type: Element.Type) -> (count: AnyKeyPath, isEmpty: AnyKeyPath) {
    (\Set<Element>.count, \Set<Element>.isEmpty)
}

/// `\[Element].count` and `\[Element].isEmpty`.
private func arrayKeyPaths<Element>(of type: Element.Type) -> (count: AnyKeyPath, isEmpty: AnyKeyPath) {
    (\[Element].count, \[Element].isEmpty)
}

/// Key paths in Strata's grammar.
enum TypedKeyPathName {
    /// `key` read from `base`.
    static func appending(_ key: String, to base: FetchExpression) -> FetchExpression {
        switch base {
        case .evaluatedObject: return .keyPath(key)
        case .keyPath(let path): return .keyPath("\(path).\(key)")
        case .keyPathOn(let inner, let path): return .keyPathOn(inner, "\(path).\(key)")
        default: return .keyPathOn(base, key)
        }
    }
}
