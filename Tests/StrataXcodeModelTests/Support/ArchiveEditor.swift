import Foundation
import Strata
import Testing

@testable import StrataXcodeModel

/// A keyed archive taken apart into its `$objects`, to change the objects of a fixture archive
/// or add new ones, then write it back with ``BinaryPropertyListBytes``: for the archived forms
/// no compiled fixture holds (packed bounds, validation predicates, fetched properties, the
/// dictionaries of store model caches, …).
///
/// Every method that adds an object returns its reference, a ``PropertyListValue/uid(_:)``.
struct ArchiveEditor {
    /// `$objects`, indexed by UID.
    var objects: [PropertyListValue]
    /// `$top`.
    var top: [String: PropertyListValue]

    /// Reads the keyed archive at `url`.
    init(contentsOf url: URL) throws {
        let root = try BinaryPropertyList.parse(Data(contentsOf: url), file: url.path)
        let archive = try #require(root.dictionary)
        objects = try #require(archive["$objects"]?.array)
        top = try #require(archive["$top"]?.dictionary)
    }

    /// The archive as the bytes of a binary property list.
    var data: Data {
        let archive: PropertyListValue = .dictionary([
            "$version": .integer(100_000), "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(top),
            "$objects": .array(objects),
        ])
        return Data(BinaryPropertyListBytes.encode(archive))
    }

    /// The root object, `$top["root"]`.
    func root() throws -> PropertyListValue {
        try #require(top["root"])
    }

    /// The reference to the entity named `name`.
    func entity(_ name: String) throws -> PropertyListValue {
        let found = objects.indices.first { index in
            guard case .dictionary(let fields) = objects[index], fields["NSProperties"] != nil else { return false }
            return refers(fields["NSEntityName"], to: name)
        }
        return .uid(try #require(found, "the archive has an entity named '\(name)'"))
    }

    /// The reference to the property named `name` of the entity `entity`.
    func property(_ name: String, of entity: PropertyListValue) throws -> PropertyListValue {
        let found = objects.indices.first { index in
            guard case .dictionary(let fields) = objects[index], fields["NSEntity"] == entity else { return false }
            return refers(fields["NSPropertyName"], to: name)
        }
        return .uid(try #require(found, "the entity \(entity) has a property named '\(name)'"))
    }

    /// The field `key` of the object `reference` refers to.
    func field(_ key: String, of reference: PropertyListValue) -> PropertyListValue? {
        guard case .uid(let index) = reference, case .dictionary(let fields) = objects[index] else { return nil }
        return fields[key]
    }

    /// Sets the field `key` of the object `reference` refers to.
    mutating func set(_ key: String, to value: PropertyListValue, of reference: PropertyListValue) {
        guard case .uid(let index) = reference, case .dictionary(var fields) = objects[index] else {
            Issue.record("\(reference) is not an archived object.")
            return
        }
        fields[key] = value
        objects[index] = .dictionary(fields)
    }

    /// Adds the properties `properties`, by name, to the `NSProperties` dictionary of `entity`.
    mutating func addProperties(_ properties: [String: PropertyListValue], to entity: PropertyListValue) throws {
        let dictionary = try #require(field("NSProperties", of: entity))
        var keys = try #require(field("NS.keys", of: dictionary)?.array)
        var values = try #require(field("NS.objects", of: dictionary)?.array)
        for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
            let key = string(name)
            keys.append(key)
            values.append(property)
        }
        set("NS.keys", to: .array(keys), of: dictionary)
        set("NS.objects", to: .array(values), of: dictionary)
    }

    /// Appends `value` to `$objects`.
    mutating func append(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return .uid(objects.count - 1)
    }

    /// Appends the string `text`.
    mutating func string(_ text: String) -> PropertyListValue {
        append(.string(text))
    }

    /// Appends an object of the class `classes[0]` (whose superclasses follow it) with `fields`.
    mutating func object(_ classes: [String], _ fields: [String: PropertyListValue]) -> PropertyListValue {
        let description = append(
            .dictionary(["$classname": .string(classes[0]), "$classes": .array(classes.map { .string($0) })]))
        var all = fields
        all["$class"] = description
        return append(.dictionary(all))
    }

    /// Appends an `NSArray` of `elements`.
    mutating func array(_ elements: [PropertyListValue]) -> PropertyListValue {
        object(["NSArray", "NSObject"], ["NS.objects": .array(elements)])
    }

    /// Appends an `NSDictionary` of `values` by `keys` (references to strings).
    mutating func dictionary(keys: [PropertyListValue], values: [PropertyListValue]) -> PropertyListValue {
        object(["NSDictionary", "NSObject"], ["NS.keys": .array(keys), "NS.objects": .array(values)])
    }

    /// Appends the expression `SELF`.
    mutating func selfExpression() -> PropertyListValue {
        object(["NSSelfExpression", "NSExpression", "NSObject"], ["NSExpressionType": .integer(1)])
    }

    /// Appends the key path expression `path`, as `NSPredicate(format:)` archives it.
    mutating func keyPath(_ path: String) -> PropertyListValue {
        let name = string(path)
        let specifier = object(
            ["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"],
            ["NSExpressionType": .integer(10), "NSKeyPath": name])
        let arguments = array([specifier])
        let operand = selfExpression()
        let selector = string("valueForKey:")
        return object(
            ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"],
            [
                "NSOperand": operand, "NSSelectorName": selector, "NSExpressionType": .integer(3),
                "NSArguments": arguments,
            ])
    }

    /// Appends the variable expression `$name`.
    mutating func variable(_ name: String) -> PropertyListValue {
        let variableName = string(name)
        return object(
            ["NSVariableExpression", "NSExpression", "NSObject"],
            ["NSExpressionType": .integer(2), "NSVariable": variableName])
    }

    /// Appends the constant expression holding `value` (inline, or a reference).
    mutating func constant(_ value: PropertyListValue) -> PropertyListValue {
        object(
            ["NSConstantValueExpression", "NSExpression", "NSObject"],
            ["NSExpressionType": .integer(0), "NSConstantValue": value])
    }

    /// Appends the call of Core Data's built-in function `selector` on `arguments`.
    mutating func function(_ selector: String, _ arguments: [PropertyListValue]) -> PropertyListValue {
        let className = string("_NSPredicateUtilities")
        let operand = object(
            ["NSConstantValueExpression", "NSExpression", "NSObject"],
            ["NSExpressionType": .integer(0), "NSConstantValueClassName": className])
        let selectorName = string(selector)
        let list = array(arguments)
        return object(
            ["NSFunctionExpression", "NSExpression", "NSObject"],
            [
                "NSOperand": operand, "NSSelectorName": selectorName, "NSExpressionType": .integer(4),
                "NSArguments": list,
            ])
    }

    /// Appends the comparison `left <type> right`, `type` being an `NSPredicateOperatorType`
    /// code, with the operator class Foundation uses for it.
    mutating func comparison(_ left: PropertyListValue, _ type: Int64, _ right: PropertyListValue)
        -> PropertyListValue
    {
        let operatorClass: String
        var fields: [String: PropertyListValue] = ["NSOperatorType": .integer(type), "NSModifier": .integer(0)]
        switch type {
        case 0...3:
            operatorClass = "NSComparisonPredicateOperator"
            fields["NSVariant"] = .integer(type)
            fields["NSOptions"] = .integer(0)
        case 4, 5:
            operatorClass = "NSEqualityPredicateOperator"
            fields["NSNegate"] = .boolean(type == 5)
            fields["NSOptions"] = .integer(0)
        case 6:
            operatorClass = "NSMatchingPredicateOperator"
            fields["NSFlags"] = .integer(0)
        default:
            operatorClass = "NSInPredicateOperator"
            fields["NSFlags"] = .integer(0)
        }
        let predicateOperator = object([operatorClass, "NSPredicateOperator", "NSObject"], fields)
        return object(
            ["NSComparisonPredicate", "NSPredicate", "NSObject"],
            ["NSLeftExpression": left, "NSRightExpression": right, "NSPredicateOperator": predicateOperator])
    }

    /// Appends the conjunction of `predicates`.
    mutating func and(_ predicates: [PropertyListValue]) -> PropertyListValue {
        let list = array(predicates)
        return object(
            ["NSCompoundPredicate", "NSPredicate", "NSObject"],
            ["NSCompoundPredicateType": .integer(1), "NSSubpredicates": list])
    }

    /// Appends a fetch request of `entity` with `predicate`, with the flags Core Data archives.
    mutating func fetchRequest(entity: PropertyListValue, predicate: PropertyListValue) -> PropertyListValue {
        object(
            ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"],
            [
                "NSEntity": entity, "NSPredicate": predicate, "NSHasFetchRequestFlags": .boolean(true),
                "NSFetchRequestFlags": .integer(30), "NSResultType": .integer(0), "NSFetchLimit": .integer(0),
                "NSBatchSize": .integer(0), "NSFetchOffset": .integer(0), "NSAllocationType": .integer(0),
            ])
    }

    /// Whether `value` refers to the string `text`.
    private func refers(_ value: PropertyListValue?, to text: String) -> Bool {
        guard case .uid(let index)? = value else { return value == .string(text) }
        return objects[index] == .string(text)
    }
}
