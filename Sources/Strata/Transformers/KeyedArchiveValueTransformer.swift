import Foundation

/// Core Data's own transformer for transformable attributes: values kept as keyed archives
/// (`NSKeyedArchiver` binary property lists), registered in every ``ValueTransformerRegistry``
/// under Apple's names `NSSecureUnarchiveFromData` and `NSKeyedUnarchiveFromData`.
///
/// It reads and writes the value types Core Data archives for common attributes, mapping
/// each Foundation class to its Swift type:
///
/// | archived class | Swift value |
/// |---|---|
/// | `NSString` | `String` |
/// | `NSNumber` | `Int`, `Double` or `Bool`, as archived |
/// | `NSDate` | `Date` |
/// | `NSData` | `Data` |
/// | `NSUUID` | `UUID` |
/// | `NSURL` | `URL` |
/// | `NSArray`, `NSOrderedSet`, `NSSet` | `[any Sendable]` (a set in archived order) |
/// | `NSDictionary` with string keys | `[String: any Sendable]` |
///
/// Nothing is instantiated by class name, so reading is safe on untrusted data: an archive
/// holding any other class (an app's own `NSSecureCoding` class, say) is refused with a
/// ``ValueTransformerError`` naming the class; register a transformer of your own under the
/// attribute's transformer name to read such values.
public struct KeyedArchiveValueTransformer: AttributeValueTransformer {
    /// Creates the transformer.
    public init() {}

    /// The nesting of collections an archive may hold; deeper ones, and archives that contain
    /// themselves, are refused.
    public static let maximumDepth = 256

    public func data(from value: any Sendable) throws -> Data {
        var writer = ArchiveWriter()
        let root = try writer.reference(to: value, depth: 0)
        return BinaryPropertyListWriter.data(
            .dictionary([
                "$version": .integer(100_000), "$archiver": .string("NSKeyedArchiver"),
                "$top": .dictionary(["root": root]), "$objects": .array(writer.objects),
            ]))
    }

    public func value(from data: Data) throws -> any Sendable {
        do {
            let archive = try KeyedArchive(data: data, file: "keyed archive")
            guard case .uid(let root)? = archive.top["root"] else {
                throw ValueTransformerError(message: "The keyed archive's '$top' has no object reference 'root'.")
            }
            return try ArchiveDecoder(archive: archive).value(of: root, ancestors: [])
        } catch let error as ModelError {
            throw ValueTransformerError(message: error.message)
        }
    }
}

/// Lays Swift values out as the objects of a keyed archive, as `NSKeyedArchiver` does: strings,
/// numbers and data inline in `$objects`, other values as objects naming their class, each class
/// described once. Nothing is shared, so equal values (`1` and `true`, say) stay apart.
private struct ArchiveWriter {
    /// `$objects`, starting with the archiver's `$null`.
    private(set) var objects: [PropertyListValue] = [.string("$null")]
    private var classReferences: [String: PropertyListValue] = [:]

    /// A reference to `value`, added to ``objects``.
    mutating func reference(to value: any Sendable, depth: Int) throws -> PropertyListValue {
        guard depth < KeyedArchiveValueTransformer.maximumDepth else {
            throw ValueTransformerError(
                message: "The value nests collections more than \(KeyedArchiveValueTransformer.maximumDepth) deep.")
        }
        switch value {
        case let string as String: return append(.string(string))
        case let flag as Bool: return append(.boolean(flag))
        case let number as Int: return append(.integer(Int64(number)))
        case let number as Int64: return append(.integer(number))
        case let number as Int32: return append(.integer(Int64(number)))
        case let number as Int16: return append(.integer(Int64(number)))
        case let number as Double: return append(.real(number))
        case let number as Float: return append(.real(Double(number)))
        case let bytes as Data: return append(.data(bytes))
        case let date as Date:
            return append(object: "NSDate", ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
        case let uuid as UUID:
            return append(object: "NSUUID", ["NS.uuidbytes": .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })])
        case let url as URL:
            let relative = append(.string(url.absoluteString))
            return append(object: "NSURL", ["NS.base": .uid(0), "NS.relative": relative])
        case let list as [any Sendable]:
            let elements = try list.map { try reference(to: $0, depth: depth + 1) }
            return append(object: "NSArray", ["NS.objects": .array(elements)])
        case let dictionary as [String: any Sendable]:
            let keys = dictionary.keys.sorted()
            let keyReferences = keys.map { append(.string($0)) }
            let valueReferences = try keys.map { try reference(to: dictionary[$0]!, depth: depth + 1) }
            return append(
                object: "NSDictionary", ["NS.keys": .array(keyReferences), "NS.objects": .array(valueReferences)])
        default:
            throw ValueTransformerError(
                message: "KeyedArchiveValueTransformer cannot archive a value of type \(type(of: value)); it archives "
                    + "strings, numbers, Booleans, dates, data, UUIDs, URLs, arrays and dictionaries with string keys.")
        }
    }

    private mutating func append(_ entry: PropertyListValue) -> PropertyListValue {
        objects.append(entry)
        return .uid(objects.count - 1)
    }

    private mutating func append(object className: String, _ fields: [String: PropertyListValue]) -> PropertyListValue {
        let classReference =
            classReferences[className]
            ?? append(
                .dictionary([
                    "$classname": .string(className), "$classes": .array([.string(className), .string("NSObject")]),
                ]))
        classReferences[className] = classReference
        return append(.dictionary(fields.merging(["$class": classReference]) { own, _ in own }))
    }
}

/// Turns the objects of a keyed archive into Swift values, following references by index.
/// Each object is decoded once, however often it is referred to, so an archive sharing objects
/// costs no more than its size.
private final class ArchiveDecoder {
    let archive: KeyedArchive
    private var decoded: [Int: any Sendable] = [:]

    init(archive: KeyedArchive) { self.archive = archive }

    /// The Swift value of `$objects[index]`, inside the collections at `ancestors`.
    func value(of index: Int, ancestors: [Int]) throws -> any Sendable {
        if let known = decoded[index] { return known }
        let value = try decode(index, ancestors: ancestors)
        decoded[index] = value
        return value
    }

    private func decode(_ index: Int, ancestors: [Int]) throws -> any Sendable {
        guard !ancestors.contains(index) else {
            throw ValueTransformerError(message: "The keyed archive contains itself: object \(index) holds itself.")
        }
        guard ancestors.count < KeyedArchiveValueTransformer.maximumDepth else {
            throw ValueTransformerError(
                message:
                    "The keyed archive nests collections more than \(KeyedArchiveValueTransformer.maximumDepth) deep.")
        }
        let inner = ancestors + [index]
        guard let entry = try archive.resolve(.uid(index)) else {
            throw ValueTransformerError(message: "The keyed archive holds nil (object \(index)) where a value belongs.")
        }
        guard case .dictionary(let fields) = entry, fields["$class"] != nil else { return try plain(entry, index) }
        let object = try archive.object(at: index)
        if object.isKind(of: "NSUUID") {
            guard let bytes = try object.data("NS.uuidbytes"), bytes.count == 16 else {
                throw failure(object, "'NS.uuidbytes' does not hold 16 bytes")
            }
            return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        }
        if object.isKind(of: "NSURL") {
            var base: URL?
            if case .uid(let baseIndex)? = object.fields["NS.base"], try archive.resolve(.uid(baseIndex)) != nil {
                guard let baseURL = try value(of: baseIndex, ancestors: inner) as? URL else {
                    throw failure(object, "its base ('NS.base') is not a URL")
                }
                base = baseURL
            }
            guard let text = try archive.plainValue(.uid(index))?.string,
                let url = URL(string: text, relativeTo: base)
            else {
                throw failure(object, "its relative string is not a URL")
            }
            return base == nil ? url : url.absoluteURL
        }
        if object.isKind(of: "NSString") || object.isKind(of: "NSData") || object.isKind(of: "NSDate") {
            guard let plainValue = try archive.plainValue(.uid(index)) else {
                throw failure(object, "it holds nothing")
            }
            return try plain(plainValue, index)
        }
        if object.isKind(of: "NSArray") || object.isKind(of: "NSSet") || object.isKind(of: "NSOrderedSet") {
            return try references(object, "NS.objects").map { try value(of: $0, ancestors: inner) } as [any Sendable]
        }
        if object.isKind(of: "NSDictionary") {
            let keys = try references(object, "NS.keys")
            let values = try references(object, "NS.objects")
            guard keys.count == values.count else {
                throw failure(object, "it has \(keys.count) keys but \(values.count) values")
            }
            var result: [String: any Sendable] = [:]
            for (key, element) in zip(keys, values) {
                guard let name = try value(of: key, ancestors: inner) as? String else {
                    throw failure(object, "a key is not a string")
                }
                result[name] = try value(of: element, ancestors: inner)
            }
            return result
        }
        throw ValueTransformerError(
            message:
                "The keyed archive holds an object of class \(object.className), which KeyedArchiveValueTransformer "
                + "does not read; register a transformer of your own for the attribute's transformer name.")
    }

    /// The object indexes in the array field `key` of a collection.
    private func references(_ object: KeyedArchive.Object, _ key: String) throws -> [Int] {
        guard case .array(let list)? = object.fields[key] else { return [] }
        return try list.map { element in
            guard case .uid(let index) = element else { throw failure(object, "'\(key)' holds an inline value") }
            return index
        }
    }

    /// A value stored inline in `$objects`.
    private func plain(_ value: PropertyListValue, _ index: Int) throws -> any Sendable {
        switch value {
        case .string(let string): return string
        case .integer(let number): return Int(exactly: number) ?? number
        case .real(let number): return number
        case .boolean(let flag): return flag
        case .date(let date): return date
        case .data(let bytes): return bytes
        default:
            throw ValueTransformerError(
                message: "Object \(index) of the keyed archive is \(value.kindDescription), not a value.")
        }
    }

    private func failure(_ object: KeyedArchive.Object, _ reason: String) -> ValueTransformerError {
        ValueTransformerError(message: "Object \(object.index) (\(object.className)) of the keyed archive: \(reason).")
    }
}
