import Strata

extension CompiledModelReader {
    /// How deep predicates and expressions may nest; deeper archives (or cyclic ones) are refused.
    static let maximumPredicateDepth = 256

    /// What the predicate in one field of an archived object comes to.
    enum ArchivedPredicate {
        /// The field is absent or `$null`.
        case absent
        /// The predicate, in Core Data's format syntax.
        case format(String)
        /// A predicate Strata cannot express; the message says why.
        case unsupported(String)
    }

    /// The predicate in the field `key` of `object` (an archived `NSPredicate`), in format syntax.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when the predicate is malformed.
    func archivedPredicate(_ key: String, of object: KeyedArchive.Object) throws(ModelError) -> ArchivedPredicate {
        guard let archived = try object.object(key) else { return .absent }
        do throws(ModelError) {
            return .format(try decodePredicate(archived, depth: 0).description)
        } catch {
            guard error.code == .unsupportedFormat else { throw error }
            return .unsupported(error.message)
        }
    }

    /// The archived `NSPredicate` `object` as a `FetchPredicate`.
    ///
    /// Read: `NSTruePredicate` and `NSFalsePredicate`; `NSCompoundPredicate`
    /// (`NSCompoundPredicateType` 0 NOT, 1 AND, 2 OR, over `NSSubpredicates`); and
    /// `NSComparisonPredicate` (`NSLeftExpression`, `NSRightExpression` and
    /// `NSPredicateOperator`, whose `NSOperatorType` is Core Data's `NSPredicateOperatorType`,
    /// `NSModifier` 0 direct, 1 ALL, 2 ANY, and options in `NSOptions` or, for string operators,
    /// `NSFlags`: 1 `[c]`, 2 `[d]`, 4 `[n]`; `NSNegate` makes an equality `!=`). The option `[n]`
    /// only promises that the strings are already normalized, so it is dropped.
    ///
    /// - Throws: `ModelError/Code/unsupportedFormat` for what Strata cannot express (custom
    ///   selectors, block predicates, unknown operators, `FUNCTION` calls on objects, …);
    ///   `ModelError/Code/malformedFile` for missing parts.
    func decodePredicate(_ object: KeyedArchive.Object, depth: Int) throws(ModelError) -> FetchPredicate {
        try checkDepth(depth, at: object)
        if object.isKind(of: "NSComparisonPredicate") { return try decodeComparison(object, depth: depth) }
        if object.isKind(of: "NSCompoundPredicate") {
            guard let type = try object.integer("NSCompoundPredicateType") else {
                throw malformed(object, "the compound predicate has no type ('NSCompoundPredicateType')")
            }
            var operands: [FetchPredicate] = []
            for operand in try object.objects("NSSubpredicates") ?? [] {
                operands.append(try decodePredicate(operand, depth: depth + 1))
            }
            switch type {
            case 0: return .not(operands.count == 1 ? operands[0] : .and(operands))
            case 1: return .and(operands)
            case 2: return .or(operands)
            default: throw malformed(object, "the compound predicate has the type \(type); expected 0, 1 or 2")
            }
        }
        if object.isKind(of: "NSTruePredicate") { return .constant(true) }
        if object.isKind(of: "NSFalsePredicate") { return .constant(false) }
        throw unrepresentable(object, "Strata has no predicate like an \(object.className)")
    }

    /// The archived `NSComparisonPredicate` `object`.
    private func decodeComparison(_ object: KeyedArchive.Object, depth: Int) throws(ModelError) -> FetchPredicate {
        guard let predicateOperator = try object.object("NSPredicateOperator") else {
            throw malformed(object, "the comparison has no operator ('NSPredicateOperator')")
        }
        guard let left = try object.object("NSLeftExpression"), let right = try object.object("NSRightExpression")
        else {
            throw malformed(object, "the comparison lacks an expression ('NSLeftExpression', 'NSRightExpression')")
        }
        guard let type = try predicateOperator.integer("NSOperatorType") else {
            throw malformed(predicateOperator, "the operator has no type ('NSOperatorType')")
        }
        let modifier: ComparisonPredicate.Modifier
        switch try predicateOperator.integer("NSModifier") ?? 0 {
        case 0: modifier = .direct
        case 1: modifier = .all
        case 2: modifier = .any
        case let other: throw malformed(predicateOperator, "the operator has the modifier \(other); expected 0, 1 or 2")
        }
        var optionBits = try predicateOperator.integer("NSOptions") ?? 0
        if predicateOperator.fields["NSOptions"] == nil {
            optionBits = try predicateOperator.integer("NSFlags") ?? 0
        }
        var options: StringComparisonOptions = []
        if optionBits & 1 != 0 { options.insert(.caseInsensitive) }
        if optionBits & 2 != 0 { options.insert(.diacriticInsensitive) }
        let comparisonOperator: ComparisonPredicate.Operator
        switch type {
        case 0: comparisonOperator = .lessThan
        case 1: comparisonOperator = .lessThanOrEqualTo
        case 2: comparisonOperator = .greaterThan
        case 3: comparisonOperator = .greaterThanOrEqualTo
        case 4: comparisonOperator = try predicateOperator.boolean("NSNegate") == true ? .notEqualTo : .equalTo
        case 5: comparisonOperator = .notEqualTo
        case 6: comparisonOperator = .matches
        case 7: comparisonOperator = .like
        case 8: comparisonOperator = .beginsWith
        case 9: comparisonOperator = .endsWith
        case 10: comparisonOperator = .in
        case 99: comparisonOperator = .contains
        case 100: comparisonOperator = .between
        case 11:
            let selector = try predicateOperator.string("NSSelectorName") ?? "?"
            throw unrepresentable(object, "it compares with the custom selector '\(selector)'")
        default:
            throw unrepresentable(object, "Strata has no comparison operator of type \(type)")
        }
        return .comparison(
            ComparisonPredicate(
                try decodeExpression(left, depth: depth + 1), comparisonOperator,
                try decodeExpression(right, depth: depth + 1), modifier: modifier, options: options))
    }

    /// The archived `NSExpression` `object` as a `FetchExpression`.
    ///
    /// Read: `NSSelfExpression` (`SELF`); `NSVariableExpression` (`NSVariable`);
    /// `NSKeyPathSpecifierExpression` (`NSKeyPath`); `NSConstantValueExpression`
    /// (`NSConstantValue`, see ``attributeValue(_:)``; an array, set or ordered set becomes an
    /// aggregate); `NSAggregateExpression` (`NSCollection`); `NSSubqueryExpression`
    /// (`NSExpression`, `NSVariable`, `NSSubpredicate`); and `NSFunctionExpression`
    /// (`NSSelectorName`, `NSOperand`, `NSArguments`), of which `NSKeyPathExpression` is the kind
    /// that applies `valueForKey:` or `valueForKeyPath:` to its operand. A function is Core
    /// Data's built-in one (`count:`, `now`, …) when its operand is the constant class
    /// `_NSPredicateUtilities`.
    ///
    /// - Throws: `ModelError/Code/unsupportedFormat` for what Strata cannot express;
    ///   `ModelError/Code/malformedFile` for missing parts.
    func decodeExpression(_ object: KeyedArchive.Object, depth: Int) throws(ModelError) -> FetchExpression {
        try checkDepth(depth, at: object)
        if object.isKind(of: "NSSelfExpression") { return .evaluatedObject }
        if object.isKind(of: "NSVariableExpression") {
            return .variable(try requiredString("NSVariable", of: object, in: "the variable expression"))
        }
        if object.isKind(of: "NSKeyPathSpecifierExpression") {
            return .keyPath(try requiredString("NSKeyPath", of: object, in: "the key path expression"))
        }
        if object.isKind(of: "NSConstantValueExpression") {
            guard let field = object.fields["NSConstantValue"] else {
                if try object.string("NSConstantValueClassName") != nil {
                    throw unrepresentable(object, "the constant is a class")
                }
                return .constant(.null)
            }
            return try decodeConstant(field, in: object, depth: depth)
        }
        if object.isKind(of: "NSAggregateExpression") {
            var elements: [FetchExpression] = []
            for element in try object.array("NSCollection") ?? [] {
                elements.append(try decodeElement(element, in: object, depth: depth + 1))
            }
            return .aggregate(elements)
        }
        if object.isKind(of: "NSSubqueryExpression") { return try decodeSubquery(object, depth: depth) }
        if object.isKind(of: "NSFunctionExpression") { return try decodeFunction(object, depth: depth) }
        throw unrepresentable(object, "Strata has no expression like an \(object.className)")
    }

    /// An element of an aggregate: an archived expression, or a constant value.
    private func decodeElement(_ element: PropertyListValue, in object: KeyedArchive.Object, depth: Int)
        throws(ModelError) -> FetchExpression
    {
        if let archived = try archive.object(element), archived.isKind(of: "NSExpression") {
            return try decodeExpression(archived, depth: depth)
        }
        return try decodeConstant(element, in: object, depth: depth)
    }

    /// The constant `field` of the expression `object`.
    private func decodeConstant(_ field: PropertyListValue, in object: KeyedArchive.Object, depth: Int)
        throws(ModelError) -> FetchExpression
    {
        try checkDepth(depth, at: object)
        if let archived = try archive.object(field),
            archived.isKind(of: "NSArray") || archived.isKind(of: "NSSet") || archived.isKind(of: "NSOrderedSet")
        {
            var elements: [FetchExpression] = []
            for element in try archived.elements() {
                elements.append(try decodeConstant(element, in: object, depth: depth + 1))
            }
            return .aggregate(elements)
        }
        guard let value = try attributeValue(field) else {
            throw unrepresentable(object, "Strata has no value like \(describe(field))")
        }
        return .constant(value)
    }

    /// The archived `NSSubqueryExpression` `object`.
    private func decodeSubquery(_ object: KeyedArchive.Object, depth: Int) throws(ModelError) -> FetchExpression {
        guard let collection = try object.object("NSExpression"), let predicate = try object.object("NSSubpredicate")
        else {
            throw malformed(
                object, "the subquery lacks its collection ('NSExpression') or predicate ('NSSubpredicate')")
        }
        let variable: String
        if let archived = try archive.object(object.fields["NSVariable"] ?? .null) {
            variable = try requiredString("NSVariable", of: archived, in: "the variable of the subquery")
        } else {
            variable = try requiredString("NSVariable", of: object, in: "the subquery")
        }
        return .subquery(
            collection: try decodeExpression(collection, depth: depth + 1), variable: variable,
            predicate: try decodePredicate(predicate, depth: depth + 1))
    }

    /// The archived `NSFunctionExpression` (or `NSKeyPathExpression`) `object`.
    private func decodeFunction(_ object: KeyedArchive.Object, depth: Int) throws(ModelError) -> FetchExpression {
        let selector = try requiredString("NSSelectorName", of: object, in: "the function expression")
        guard let operand = try object.object("NSOperand") else {
            throw malformed(object, "the function expression has no operand ('NSOperand')")
        }
        let arguments = try object.objects("NSArguments") ?? []
        if selector == "valueForKey:" || selector == "valueForKeyPath:" {
            guard arguments.count == 1, case .keyPath(let path) = try decodeExpression(arguments[0], depth: depth + 1)
            else {
                throw unrepresentable(object, "its key path is not a name")
            }
            switch try decodeExpression(operand, depth: depth + 1) {
            case .evaluatedObject: return .keyPath(path)
            case .keyPath(let base): return .keyPath(base + "." + path)
            case .keyPathOn(let base, let basePath): return .keyPathOn(base, basePath + "." + path)
            case let other: return .keyPathOn(other, path)
            }
        }
        guard operand.isKind(of: "NSConstantValueExpression"),
            try operand.string("NSConstantValueClassName") == "_NSPredicateUtilities"
        else {
            throw unrepresentable(object, "it calls '\(selector)' on an object (FUNCTION), which Strata cannot do")
        }
        var decoded: [FetchExpression] = []
        for argument in arguments {
            decoded.append(try decodeExpression(argument, depth: depth + 1))
        }
        return .function(selector, decoded)
    }

    /// Refuses `object` when it lies deeper than ``maximumPredicateDepth``.
    private func checkDepth(_ depth: Int, at object: KeyedArchive.Object) throws(ModelError) {
        guard depth <= Self.maximumPredicateDepth else {
            throw malformed(
                object, "the predicate nests more than \(Self.maximumPredicateDepth) levels deep, or contains itself")
        }
    }
}
