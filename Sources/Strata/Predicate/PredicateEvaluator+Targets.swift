/// An object a `FUNCTION(target, "selector:", arguments…)` expression may call a method of,
/// or a class `CAST("Name", "Class")` names: Core Data sends the selector to the object.
protocol ExpressionFunctionTarget: KeyValueResolving {
    /// The result of the method `selector` with `arguments`.
    func callFunction(_ selector: String, arguments: [EvaluatedValue], label: String) throws(FetchPredicateError)
        -> EvaluatedValue
}

extension PredicateEvaluator {
    /// `FUNCTION(target, "selector", arguments…)`: `valueForKey:` and `valueForKeyPath:` on
    /// any object, other selectors on an ``ExpressionFunctionTarget``.
    func callOnTarget(_ arguments: [EvaluatedValue], label: @autoclosure () -> String) throws(FetchPredicateError)
        -> EvaluatedValue
    {
        guard arguments.count >= 2, case .value(.string(let selector)) = arguments[1] else {
            throw FetchPredicateError(
                code: .evaluation, message: "'\(label())' needs a target and a selector name for FUNCTION.")
        }
        let target = arguments[0]
        let rest = Array(arguments.dropFirst(2))
        if selector == "valueForKey:" || selector == "valueForKeyPath:", rest.count == 1,
            case .value(.string(let path)) = rest[0]
        {
            return try target.value(atKeyPath: path, label: label())
        }
        guard case .object(let object as any ExpressionFunctionTarget) = target else {
            throw FetchPredicateError(
                code: .evaluation,
                message: "'\(label())' calls '\(selector)' on \(target.kindDescription), which cannot answer it; "
                    + "only valueForKey: and valueForKeyPath: are called on objects.")
        }
        return try object.callFunction(selector, arguments: rest, label: label())
    }

    /// Whether `CAST`'s arguments are a name and `"Class"`.
    static func castsToClass(_ arguments: [EvaluatedValue]) -> Bool {
        guard arguments.count == 2, case .value(.string("Class")) = arguments[1] else { return false }
        return true
    }

    /// `CAST("Name", "Class")`: the class registered as `Name` in ``classes``.
    func classReference(_ arguments: [EvaluatedValue], label: @autoclosure () -> String) throws(FetchPredicateError)
        -> EvaluatedValue
    {
        guard case .value(.string(let name)) = arguments[0] else {
            throw FetchPredicateError(
                code: .evaluation, message: "'\(label())' casts something other than a class name.")
        }
        guard let target = classes[name] ?? name.split(separator: ".").last.flatMap({ classes[String($0)] }) else {
            throw FetchPredicateError(
                code: .evaluation,
                message: "'\(label())' names class '\(name)', which is not registered (registered: "
                    + "\(classes.keys.sorted())).")
        }
        return .object(target)
    }
}
