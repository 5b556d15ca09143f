import Foundation
import Strata

/// Turns the archived `NSManagedObjectModel` of one compiled model (a `.mom` file, or a store's
/// model cache) into a `ManagedObjectModel`.
///
/// Like ``ModelFileReader``, the reader checks what it reads: required fields, known codes,
/// values of the right kind. References between entities (superentity, destinations, inverses,
/// constraint and index properties, configuration members) are checked later by
/// `ManagedObjectModel/validationIssues()` and `ManagedObjectModel/freeze()`. What Strata does
/// not use is noted in ``skipped``.
///
/// The archive's keys and flags, as Core Data's `encodeWithCoder:` methods write them, are
/// listed where they are read: `+Model`, `+Entity`, `+Attribute`, `+AttributeValue`,
/// `+Relationship` and `+Predicate`.
struct CompiledModelReader {
    /// The archive being read.
    let archive: KeyedArchive
    /// What was skipped, to be logged once the archive is read.
    var skipped = SkippedArchiveItems()

    /// Creates a reader for `archive`.
    init(archive: KeyedArchive) {
        self.archive = archive
    }

    /// The file the archive was read from, for messages.
    var file: String { archive.file }

    /// An error with code `ModelError/Code/malformedFile` for `object`: `'file', object 7
    /// (NSEntityDescription): reason.`
    func malformed(_ object: KeyedArchive.Object, _ reason: String) -> ModelError {
        ModelError(
            code: .malformedFile, message: "'\(file)', object \(object.index) (\(object.className)): \(reason).",
            filePath: file)
    }

    /// An error with code `ModelError/Code/unsupportedFormat` for `object`, which Strata cannot
    /// represent; `reason` says why.
    func unrepresentable(_ object: KeyedArchive.Object, _ reason: String) -> ModelError {
        ModelError(
            code: .unsupportedFormat,
            message: "'\(file)', object \(object.index) (\(object.className)): \(reason).", filePath: file)
    }

    /// Where `object` is, for log messages: `object 7`.
    func place(of object: KeyedArchive.Object) -> String {
        "object \(object.index)"
    }

    /// The string in the field `key` of `object`.
    ///
    /// - Throws: `ModelError/Code/malformedFile`, naming `what` (such as `an attribute of entity
    ///   'Car'`), when the field is absent or `$null`, or not a string.
    func requiredString(_ key: String, of object: KeyedArchive.Object, in what: String) throws(ModelError) -> String {
        guard let value = try object.string(key) else {
            throw malformed(object, "\(what) lacks its '\(key)'")
        }
        return value
    }

    /// The archived object `value`, an element or entry value of the field `key` of
    /// `container`, refers to.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when `value` is not a reference to an archived
    ///   object.
    func requiredObject(_ value: PropertyListValue, in container: KeyedArchive.Object, key: String)
        throws(ModelError) -> KeyedArchive.Object
    {
        guard let object = try archive.object(value) else {
            throw malformed(container, "an element of '\(key)' is \(value.kindDescription), not an archived object")
        }
        return object
    }

    /// The entries of the dictionary in the field `key` of `object`, sorted by key; nil when the
    /// field is absent or `$null`.
    ///
    /// Compiled models archive dictionaries as `NSDictionary` (`NS.keys` and `NS.objects`); the
    /// model caches of stores archive some as `NSKnownKeysDictionary1`, whose keys are in
    /// `searchMapping` (an `NSKnownKeysMappingStrategy1`, field `keys`) and whose values are in
    /// `values`, in the same order. Values are decoded as ``KeyedArchive/Object/dictionary(_:)``
    /// decodes them: archived objects come back as ``PropertyListValue/uid(_:)``.
    func entries(_ key: String, of object: KeyedArchive.Object) throws(ModelError)
        -> [(key: String, value: PropertyListValue)]?
    {
        guard let field = object.fields[key] else { return nil }
        if let dictionary = try archive.object(field), dictionary.isKind(of: "NSKnownKeysDictionary1") {
            return try knownKeysEntries(of: dictionary)
        }
        guard let dictionary = try object.dictionary(key) else { return nil }
        return dictionary.sorted { $0.key < $1.key }
    }

    /// The entries of an archived `NSKnownKeysDictionary1`, sorted by key; empty slots (`$null`
    /// or the dictionary's `emptyToken`) are left out.
    private func knownKeysEntries(of dictionary: KeyedArchive.Object) throws(ModelError)
        -> [(key: String, value: PropertyListValue)]
    {
        guard let mapping = try dictionary.object("searchMapping"), let keys = try mapping.array("keys"),
            let values = try dictionary.array("values")
        else {
            throw malformed(dictionary, "the dictionary lacks the 'keys' of its 'searchMapping', or its 'values'")
        }
        guard keys.count <= values.count else {
            throw malformed(dictionary, "the dictionary has \(keys.count) keys but \(values.count) values")
        }
        let emptyToken = try dictionary.string("emptyToken")
        var result: [(key: String, value: PropertyListValue)] = []
        for (position, key) in keys.enumerated() {
            guard case .string(let name) = key else {
                throw malformed(dictionary, "a key of the dictionary is \(key.kindDescription), not a string")
            }
            let value = values[position]
            if value == .null { continue }
            if let emptyToken, value == .string(emptyToken) { continue }
            result.append((key: name, value: value))
        }
        return result.sorted { $0.key < $1.key }
    }

    /// The user info of `object` (field `NSUserInfo`, a dictionary); entries whose value is not
    /// a string are skipped and logged, as a model file can hold only strings.
    mutating func userInfo(of object: KeyedArchive.Object, in what: String) throws(ModelError) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in try entries("NSUserInfo", of: object) ?? [] {
            guard case .string(let text) = value else {
                skipped.skip(
                    "the user info entry '\(key)' of \(what)", because: "its value is not a string.",
                    at: place(of: object))
                continue
            }
            result[key] = text
        }
        return result
    }

    /// The renaming identifier of `object` (field `NSRenamingIdentifier`), or nil when it is
    /// absent or equal to `name`: Core Data archives the name when no identifier was set.
    func renamingIdentifier(of object: KeyedArchive.Object, name: String) throws(ModelError) -> String? {
        let identifier = try object.string("NSRenamingIdentifier")
        return identifier == name ? nil : identifier
    }

    /// Notes every field of `object` not in `used` as ignored, except `$class`, `$null` fields,
    /// and the flags `false` and numbers `0` that say nothing.
    mutating func noteUnusedKeys(of object: KeyedArchive.Object, used: Set<String>) {
        for key in object.fields.keys.sorted() where key != "$class" && !used.contains(key) {
            guard let field = object.fields[key], let value = try? archive.resolve(field) else { continue }
            switch value {
            case .boolean(false), .integer(0):
                continue
            default:
                skipped.ignore(field: key, of: object.className, at: place(of: object))
            }
        }
    }
}
