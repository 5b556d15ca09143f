import Foundation
import Strata

/// Turns an archived `NSExpression` (from a compiled mapping model, or the
/// `valueExpressionData` of an Xcode mapping model) into a `FetchExpression`.
///
/// | archived | expression |
/// | --- | --- |
/// | `NSConstantValueExpression` | `.constant`, the value as an `AttributeValue` |
/// | `NSSelfExpression` (type 1) | `.evaluatedObject` |
/// | `NSVariableExpression` | `.variable(name)`, such as `$source` |
/// | `NSKeyPathExpression` on `SELF`, or `NSKeyPathSpecifierExpression` | `.keyPath(path)` |
/// | `NSKeyPathExpression` on another expression | `.keyPathOn(operand, path)` |
/// | `NSFunctionExpression` on the predicate utilities | `.function(name, arguments)`: `uppercase:`, `now`, `CAST`, … |
/// | `NSFunctionExpression` on another operand | `.function("FUNCTION", [operand, selector, arguments…])`, such as `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", …)` |
/// | `NSAggregateExpression` | `.aggregate(elements)` |
enum ArchivedExpression {
    /// The expression archived as `object`.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/unsupportedFormat` naming the file
    ///   and class for an expression type Strata does not evaluate (subqueries, blocks,
    ///   set operations), and `ModelError/Code/malformedFile` for one missing its fields.
    static func decode(_ object: KeyedArchive.Object) throws(ModelError) -> FetchExpression {
        try decode(object, depth: 0)
    }

    /// How deeply expressions may nest: far beyond any mapping model's, so that an archive
    /// whose expression contains itself fails rather than exhausts the stack.
    static let maximumDepth = 64

    private static func decode(_ object: KeyedArchive.Object, depth: Int) throws(ModelError) -> FetchExpression {
        guard depth < maximumDepth else {
            throw ModelError(
                code: .malformedFile,
                message: "'\(object.archive.file)': an archived expression nests more than \(maximumDepth) deep "
                    + "(object \(object.index)).",
                filePath: object.archive.file)
        }
        let type = try object.integer("NSExpressionType") ?? -1
        switch type {
        case 0:
            if let className = try object.string("NSConstantValueClassName") { return .constant(.string(className)) }
            return .constant(try constant(object.plainValue("NSConstantValue"), in: object))
        case 1:
            return .evaluatedObject
        case 2:
            return .variable(try required(object.string("NSVariable"), "NSVariable", of: object))
        case 3, 10:
            return .keyPath(try required(object.string("NSKeyPath"), "NSKeyPath", of: object))
        case 4:
            return try function(object, depth: depth)
        case 14:
            let elements = try required(object.objects("NSCollection"), "NSCollection", of: object)
            var decoded: [FetchExpression] = []
            for element in elements { decoded.append(try decode(element, depth: depth + 1)) }
            return .aggregate(decoded)
        default:
            throw ModelError(
                code: .unsupportedFormat,
                message: "'\(object.archive.file)' holds an expression of type \(type) (\(object.className)), which "
                    + "Strata does not evaluate.",
                filePath: object.archive.file)
        }
    }

    /// A function expression: a key path, a built-in function, or a method call on an operand.
    private static func function(_ object: KeyedArchive.Object, depth: Int) throws(ModelError) -> FetchExpression {
        let selector = try required(object.string("NSSelectorName"), "NSSelectorName", of: object)
        var arguments: [FetchExpression] = []
        for argument in try object.objects("NSArguments") ?? [] {
            arguments.append(try decode(argument, depth: depth + 1))
        }
        let operand = try required(object.object("NSOperand"), "NSOperand", of: object)
        if selector == "valueForKeyPath:", arguments.count == 1, case .keyPath(let path) = arguments[0] {
            let base = try decode(operand, depth: depth + 1)
            return base == .evaluatedObject ? .keyPath(path) : .keyPathOn(base, path)
        }
        if operand.isKind(of: "NSConstantValueExpression"), try operand.string("NSConstantValueClassName") != nil {
            return .function(selector == "castObject:toType:" ? "CAST" : selector, arguments)
        }
        return .function("FUNCTION", [try decode(operand, depth: depth + 1), .constant(.string(selector))] + arguments)
    }

    private static func constant(_ value: PropertyListValue?, in object: KeyedArchive.Object) throws(ModelError)
        -> AttributeValue
    {
        switch value {
        case nil, .null?: return .null
        case .string(let text)?: return .string(text)
        case .integer(let number)?: return .integer64(number)
        case .real(let number)?: return .double(number)
        case .boolean(let flag)?: return .boolean(flag)
        case .date(let date)?: return .date(date)
        case .data(let bytes)?: return .binary(bytes)
        case let other?:
            throw ModelError(
                code: .unsupportedFormat,
                message: "'\(object.archive.file)' holds a constant expression of \(other.kindDescription), which "
                    + "Strata does not read.",
                filePath: object.archive.file)
        }
    }

    private static func required<Value>(_ value: Value?, _ key: String, of object: KeyedArchive.Object)
        throws(ModelError) -> Value
    {
        guard let value else {
            throw ModelError(
                code: .malformedFile,
                message: "'\(object.archive.file)': the archived \(object.className) (object \(object.index)) has no "
                    + "'\(key)'.",
                filePath: object.archive.file)
        }
        return value
    }
}
