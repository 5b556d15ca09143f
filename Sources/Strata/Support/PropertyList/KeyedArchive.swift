import Foundation

/// An NSKeyedArchiver archive: a binary property list whose `$objects` array holds every
/// archived object and value, and whose `$top` dictionary names the object the archive stands
/// for (usually under `"root"`). Objects refer to one another by UID, their index in `$objects`;
/// index 0 holds the string `$null`, which stands for nil.
///
/// ```swift
/// let archive = try KeyedArchive(data: Data(contentsOf: url), file: url.path)
/// let model = try archive.topObject()
/// if let entities = try model.dictionary("NSEntities") {
///     for (name, reference) in entities {
///         let entity = try archive.object(reference)
///         …
///     }
/// }
/// ```
///
/// Nothing is instantiated: an archived object is read as an ``Object``, a dictionary of fields
/// with its class name, and callers decode the fields they know. Every failure is a
/// `ModelError` with code `ModelError/Code/malformedFile` naming the file, the object index and
/// the key.
package struct KeyedArchive: Sendable {
    /// The file the archive was read from, for error messages.
    package let file: String
    /// `$objects`: every archived object and value, indexed by UID.
    package let objects: [PropertyListValue]
    /// `$top`: the objects the archive stands for, by name.
    package let top: [String: PropertyListValue]

    /// Reads the archive `data`, the contents of the file `file`.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when `data` is not a
    ///   binary property list, its `$archiver` is present and not `NSKeyedArchiver`, or its
    ///   `$objects` is not an array or its `$top` not a dictionary.
    package init(data: Data, file: String) throws(ModelError) {
        let root = try BinaryPropertyList.parse(data, file: file)
        guard case .dictionary(let archive) = root else {
            throw Self.failure(
                file, nil, "the root of the property list is \(root.kindDescription), not a keyed archive")
        }
        if let archiver = archive["$archiver"], archiver.string != "NSKeyedArchiver" {
            throw Self.failure(
                file, nil, "'$archiver' is \(Self.summary(of: archiver)), not 'NSKeyedArchiver'")
        }
        guard let objects = archive["$objects"] else {
            throw Self.failure(file, nil, "the keyed archive has no '$objects'")
        }
        guard case .array(let objectList) = objects else {
            throw Self.failure(file, nil, "'$objects' is \(objects.kindDescription), not an array")
        }
        guard let top = archive["$top"] else {
            throw Self.failure(file, nil, "the keyed archive has no '$top'")
        }
        guard case .dictionary(let topEntries) = top else {
            throw Self.failure(file, nil, "'$top' is \(top.kindDescription), not a dictionary")
        }
        self.file = file
        self.objects = objectList
        self.top = topEntries
    }

    /// The object `$top[key]` refers to; `key` is `"root"` in the archives Core Data writes.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when `$top` has no
    ///   `key`, or it does not refer to an archived object.
    package func topObject(_ key: String = "root") throws(ModelError) -> Object {
        let place = "'$top' key '\(key)'"
        guard let reference = top[key] else {
            throw failure(nil, "'$top' has no key '\(key)'; it has: \(top.keys.sorted().joined(separator: ", "))")
        }
        guard case .uid(let index) = reference else {
            throw failure(place, "it is \(reference.kindDescription), not an object reference")
        }
        return try object(at: index, in: place)
    }

    /// What `value` stands for: the entry of `$objects` it refers to when it is a UID, or
    /// `value` itself otherwise. `$null`, and the null marker, become nil.
    ///
    /// Only one reference is followed: an archived object comes back as its dictionary of
    /// fields. Use ``object(_:)`` to read it as an ``Object``, or ``plainValue(_:)`` to decode
    /// strings, data and dates archived as objects.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when the UID is outside
    ///   `$objects`.
    package func resolve(_ value: PropertyListValue) throws(ModelError) -> PropertyListValue? {
        try resolve(value, in: nil)
    }

    /// The object at `index` in `$objects`.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when `index` is outside
    ///   `$objects`, the entry is not a dictionary with a `$class`, or its `$class` does not
    ///   refer to a class description (a dictionary with `$classname` and `$classes`).
    package func object(at index: Int) throws(ModelError) -> Object {
        try object(at: index, in: nil)
    }

    /// The archived object `value` refers to; nil when `value` is not a UID, is `$null`, or
    /// refers to an entry that is not an archived object (a string, a number, …).
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when the UID is outside
    ///   `$objects`, or the object's `$class` is not a class description.
    package func object(_ value: PropertyListValue) throws(ModelError) -> Object? {
        guard case .uid(let index) = value else { return nil }
        let target = try entry(index, in: nil)
        guard !Self.isNull(index, target), Self.isArchivedObject(target) else { return nil }
        return try object(at: index, in: nil)
    }

    /// `value` with the archived forms of plain values decoded:
    ///
    /// - a UID is followed into `$objects`, and `$null` becomes nil;
    /// - an `NSString` or `NSMutableString` object (`NS.string`) becomes ``PropertyListValue/string(_:)``;
    /// - an `NSData` or `NSMutableData` object (`NS.data`) becomes ``PropertyListValue/data(_:)``;
    /// - an `NSDate` object (`NS.time`, seconds since 1 January 2001) becomes
    ///   ``PropertyListValue/date(_:)``;
    /// - an `NSUUID` object (`NS.uuidbytes`) becomes ``PropertyListValue/data(_:)`` holding its
    ///   16 bytes;
    /// - an `NSURL` object becomes ``PropertyListValue/string(_:)`` holding its relative string
    ///   (`NS.relative`); its base URL (`NS.base`) is left out.
    ///
    /// Numbers and booleans (`NSNumber`) and plain strings and data are stored inline and come
    /// back as they are. Any other archived object comes back as ``PropertyListValue/uid(_:)``,
    /// for ``object(_:)``.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when a UID is outside
    ///   `$objects`, or one of the objects above lacks its field or holds the wrong kind of value
    ///   there.
    package func plainValue(_ value: PropertyListValue) throws(ModelError) -> PropertyListValue? {
        try plainValue(value, in: nil)
    }

    /// The entry of `$objects` at `index`; `place` says where the reference was found.
    fileprivate func entry(_ index: Int, in place: String?) throws(ModelError) -> PropertyListValue {
        guard objects.indices.contains(index) else {
            throw failure(
                place, "the object reference \(index) is outside '$objects', which has \(objects.count) entries")
        }
        return objects[index]
    }

    /// ``resolve(_:)``, naming `place` in errors.
    fileprivate func resolve(_ value: PropertyListValue, in place: String?) throws(ModelError) -> PropertyListValue? {
        switch value {
        case .null:
            return nil
        case .uid(let index):
            let target = try entry(index, in: place)
            if Self.isNull(index, target) { return nil }
            return target
        default:
            return value
        }
    }

    /// ``object(at:)``, naming `place` (where the reference was found) in errors.
    fileprivate func object(at index: Int, in place: String?) throws(ModelError) -> Object {
        let target = try entry(index, in: place)
        guard case .dictionary(let fields) = target else {
            throw failure(
                place ?? "object \(index)", "object \(index) is \(target.kindDescription), not an archived object")
        }
        let classPlace = "object \(index), key '$class'"
        guard let classReference = fields["$class"] else {
            throw failure(place ?? "object \(index)", "object \(index) has no '$class'")
        }
        guard case .uid(let classIndex) = classReference else {
            throw failure(classPlace, "it is \(classReference.kindDescription), not an object reference")
        }
        let description = try entry(classIndex, in: classPlace)
        guard case .dictionary(let classFields) = description,
            case .string(let className)? = classFields["$classname"]
        else {
            throw failure(
                classPlace, "object \(classIndex) is not a class description (a dictionary with a '$classname')")
        }
        var hierarchy: [String] = []
        if let classes = classFields["$classes"] {
            guard case .array(let names) = classes else {
                throw failure(classPlace, "the '$classes' of object \(classIndex) is \(classes.kindDescription)")
            }
            for element in names {
                guard case .string(let name) = element else {
                    throw failure(
                        classPlace, "the '$classes' of object \(classIndex) holds \(element.kindDescription)")
                }
                hierarchy.append(name)
            }
        } else {
            hierarchy = [className]
        }
        return Object(archive: self, index: index, fields: fields, className: className, classHierarchy: hierarchy)
    }

    /// ``plainValue(_:)``, naming `place` in errors.
    fileprivate func plainValue(_ value: PropertyListValue, in place: String?) throws(ModelError)
        -> PropertyListValue?
    {
        guard case .uid(let index) = value else { return value == .null ? nil : value }
        guard let entry = try resolve(value, in: place) else { return nil }
        guard Self.isArchivedObject(entry) else { return entry }
        let archived = try object(at: index, in: place)
        if archived.isKind(of: "NSString") {
            return .string(try archived.archivedString())
        }
        if archived.isKind(of: "NSData") {
            return .data(try archived.inlineField("NS.data", expecting: "data") { $0.data })
        }
        if archived.isKind(of: "NSDate") {
            let seconds = try archived.inlineField("NS.time", expecting: "a number") { $0.real }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        }
        if archived.isKind(of: "NSUUID") {
            return .data(try archived.inlineField("NS.uuidbytes", expecting: "data") { $0.data })
        }
        if archived.isKind(of: "NSURL") {
            return .string(try archived.relativeURLString())
        }
        return value
    }

    /// How error messages name `value`: the string itself, or an archived object's class.
    fileprivate func describe(_ value: PropertyListValue) -> String {
        guard case .uid(let index) = value, objects.indices.contains(index) else { return Self.summary(of: value) }
        if Self.isNull(index, objects[index]) { return "$null" }
        guard Self.isArchivedObject(objects[index]), let archived = try? object(at: index, in: nil) else {
            return "a reference to \(Self.summary(of: objects[index]))"
        }
        return "an \(archived.className) object"
    }

    /// The error for `reason` at `place` ("object 3 (NSEntityDescription), key 'NSProperties'")
    /// of this archive.
    fileprivate func failure(_ place: String?, _ reason: String) -> ModelError {
        Self.failure(file, place, reason)
    }

    /// The error for `reason` at `place` of the archive `file`: `'file', place: malformed keyed
    /// archive: reason.`
    fileprivate static func failure(_ file: String, _ place: String?, _ reason: String) -> ModelError {
        let location = place.map { "'\(file)', \($0)" } ?? "'\(file)'"
        return ModelError(
            code: .malformedFile, message: "\(location): malformed keyed archive: \(reason).", filePath: file)
    }

    /// How error messages name a value that is not a reference: a string in quotes, otherwise
    /// its kind.
    fileprivate static func summary(of value: PropertyListValue) -> String {
        if case .string(let string) = value { return "'\(string)'" }
        return value.kindDescription
    }

    /// Whether the entry `entry` at `index` of `$objects` is the archiver's `$null`.
    fileprivate static func isNull(_ index: Int, _ entry: PropertyListValue) -> Bool {
        index == 0 && entry == .string("$null")
    }

    /// Whether `entry` is an archived object: a dictionary with a `$class`.
    fileprivate static func isArchivedObject(_ entry: PropertyListValue) -> Bool {
        guard case .dictionary(let fields) = entry else { return false }
        return fields["$class"] != nil
    }
}

extension KeyedArchive {
    /// One archived object: its fields, and the class it was archived as.
    ///
    /// The accessors read one field each and follow UIDs, so callers rarely touch ``fields``.
    /// Each returns nil when the field is absent or `$null`, and throws `ModelError` with code
    /// `ModelError/Code/malformedFile`, naming the file, the object's index and the key, when
    /// the field holds the wrong kind of value.
    package struct Object: Sendable {
        /// The archive the object belongs to.
        package let archive: KeyedArchive
        /// The object's index in `$objects`.
        package let index: Int
        /// The object's fields as stored, `$class` included; other objects appear as UIDs.
        package let fields: [String: PropertyListValue]
        /// The `$classname` of the object's class, such as `"NSEntityDescription"`.
        package let className: String
        /// The `$classes` of the object's class: the class and its superclasses, such as
        /// `["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"]`.
        package let classHierarchy: [String]

        /// Whether the object's class is `name` or a subclass of it.
        package func isKind(of name: String) -> Bool {
            classHierarchy.contains(name)
        }

        /// The field `key` with its UID followed (see ``KeyedArchive/resolve(_:)``); nil when
        /// the field is absent or `$null`.
        package func value(_ key: String) throws(ModelError) -> PropertyListValue? {
            guard let field = fields[key] else { return nil }
            return try archive.resolve(field, in: fieldPlace(key))
        }

        /// The field `key` decoded by ``KeyedArchive/plainValue(_:)``; nil when the field is
        /// absent or `$null`.
        package func plainValue(_ key: String) throws(ModelError) -> PropertyListValue? {
            guard let field = fields[key] else { return nil }
            return try archive.plainValue(field, in: fieldPlace(key))
        }

        /// The string in the field `key`, stored inline or as an `NSString`,
        /// `NSMutableString` or `NSURL` object.
        package func string(_ key: String) throws(ModelError) -> String? {
            try plain(key, expecting: "a string") { $0.string }
        }

        /// The integer in the field `key`.
        package func integer(_ key: String) throws(ModelError) -> Int64? {
            try plain(key, expecting: "an integer") { $0.integer }
        }

        /// The flag in the field `key`: a boolean, or the integer 0 or 1.
        package func boolean(_ key: String) throws(ModelError) -> Bool? {
            try plain(key, expecting: "a boolean") { (value: PropertyListValue) -> Bool? in
                switch value {
                case .boolean(let flag): flag
                case .integer(0): false
                case .integer(1): true
                default: nil
                }
            }
        }

        /// The number in the field `key`: a real number or an integer.
        package func real(_ key: String) throws(ModelError) -> Double? {
            try plain(key, expecting: "a number") { $0.real }
        }

        /// The bytes in the field `key`, stored inline or as an `NSData`, `NSMutableData` or
        /// `NSUUID` object.
        package func data(_ key: String) throws(ModelError) -> Data? {
            try plain(key, expecting: "data") { $0.data }
        }

        /// The date in the field `key`, stored inline or as an `NSDate` object.
        package func date(_ key: String) throws(ModelError) -> Date? {
            try plain(key, expecting: "a date") { (value: PropertyListValue) -> Date? in
                if case .date(let date) = value { return date }
                return nil
            }
        }

        /// The archived object the field `key` refers to.
        package func object(_ key: String) throws(ModelError) -> Object? {
            guard let field = fields[key] else { return nil }
            guard case .uid(let target) = field else {
                throw archive.failure(fieldPlace(key), "it is \(field.kindDescription), not an object reference")
            }
            let referenced = try archive.entry(target, in: fieldPlace(key))
            if KeyedArchive.isNull(target, referenced) { return nil }
            guard KeyedArchive.isArchivedObject(referenced) else {
                throw archive.failure(
                    fieldPlace(key),
                    "it refers to \(KeyedArchive.summary(of: referenced)) (object \(target)), not an archived object")
            }
            return try archive.object(at: target, in: fieldPlace(key))
        }

        /// The elements of the archived `NSArray`, `NSSet` or `NSOrderedSet` (or their mutable
        /// subclasses) the field `key` refers to, in archived order.
        ///
        /// Each element is decoded by ``KeyedArchive/plainValue(_:)``: strings, numbers, data
        /// and dates come back as values, other archived objects as
        /// ``PropertyListValue/uid(_:)`` for ``KeyedArchive/object(_:)``; `$null` comes back as
        /// ``PropertyListValue/null``. A property list array stored inline is read the same way.
        package func array(_ key: String) throws(ModelError) -> [PropertyListValue]? {
            guard let field = fields[key] else { return nil }
            let place = fieldPlace(key)
            guard let value = try archive.resolve(field, in: place) else { return nil }
            let elements: [PropertyListValue]
            switch value {
            case .array(let list), .set(let list):
                elements = list
            case .dictionary:
                guard let collection = try archive.object(field) else {
                    throw archive.failure(place, "it refers to a dictionary that is not an archived object")
                }
                elements = try collection.archivedElements(for: place)
            default:
                throw archive.failure(place, "it is \(archive.describe(field)), not an array or set")
            }
            return try archive.plainElements(elements, in: place)
        }

        /// The archived objects in the `NSArray`, `NSSet` or `NSOrderedSet` the field `key`
        /// refers to; every element must be an archived object.
        package func objects(_ key: String) throws(ModelError) -> [Object]? {
            guard let elements = try array(key) else { return nil }
            var objects: [Object] = []
            objects.reserveCapacity(elements.count)
            for element in elements {
                guard let object = try archive.object(element) else {
                    throw archive.failure(
                        fieldPlace(key), "an element is \(archive.describe(element)), not an archived object")
                }
                objects.append(object)
            }
            return objects
        }

        /// The entries of the archived `NSDictionary` (or `NSMutableDictionary`) the field `key`
        /// refers to: its keys (`NS.keys`) must be strings; its values (`NS.objects`) are decoded
        /// as ``array(_:)`` decodes elements.
        package func dictionary(_ key: String) throws(ModelError) -> [String: PropertyListValue]? {
            guard let field = fields[key] else { return nil }
            let place = fieldPlace(key)
            guard let value = try archive.resolve(field, in: place) else { return nil }
            switch value {
            case .dictionary(let entries) where !KeyedArchive.isArchivedObject(value):
                var result: [String: PropertyListValue] = [:]
                for (name, entry) in entries {
                    result[name] = try archive.plainElements([entry], in: place)[0]
                }
                return result
            case .dictionary:
                guard let dictionary = try archive.object(field) else {
                    throw archive.failure(place, "it does not refer to an archived object")
                }
                return try dictionary.archivedEntries(for: place)
            default:
                throw archive.failure(place, "it is \(archive.describe(field)), not a dictionary")
            }
        }

        /// The elements of this object, an archived `NSArray`, `NSSet` or `NSOrderedSet`, decoded
        /// as ``array(_:)`` decodes them; for collections inside collections.
        ///
        /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when the object has
        ///   no `NS.objects` array.
        package func elements() throws(ModelError) -> [PropertyListValue] {
            let place = "object \(index) (\(className))"
            return try archive.plainElements(try archivedElements(for: place), in: place)
        }

        /// The entries of this object, an archived `NSDictionary`, decoded as
        /// ``dictionary(_:)`` decodes them.
        ///
        /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when the object has
        ///   no `NS.keys` and `NS.objects` arrays of the same length, or a key is not a string.
        package func entries() throws(ModelError) -> [String: PropertyListValue] {
            try archivedEntries(for: "object \(index) (\(className))")
        }

        /// How error messages name the field `key` of this object.
        fileprivate func fieldPlace(_ key: String) -> String {
            "object \(index) (\(className)), key '\(key)'"
        }

        /// The field `key` decoded as a plain value and converted by `convert`; nil when absent
        /// or `$null`, an error naming `expected` when `convert` gives nil.
        private func plain<T>(
            _ key: String, expecting expected: String, _ convert: (PropertyListValue) -> T?
        ) throws(ModelError) -> T? {
            guard let field = fields[key] else { return nil }
            let place = fieldPlace(key)
            guard let value = try archive.plainValue(field, in: place) else { return nil }
            guard let converted = convert(value) else {
                throw archive.failure(place, "it is \(archive.describe(value)), not \(expected)")
            }
            return converted
        }

        /// The field `key`, stored inline (not as a reference) and converted by `convert`.
        fileprivate func inlineField<T>(
            _ key: String, expecting expected: String, _ convert: (PropertyListValue) -> T?
        ) throws(ModelError) -> T {
            guard let field = fields[key] else {
                throw archive.failure(fieldPlace(key), "the \(className) object has no '\(key)'")
            }
            guard let converted = convert(field) else {
                throw archive.failure(fieldPlace(key), "it is \(field.kindDescription), not \(expected)")
            }
            return converted
        }

        /// The text of an `NSString` or `NSMutableString` object: `NS.string`, or the UTF-8
        /// bytes in `NS.bytes`.
        fileprivate func archivedString() throws(ModelError) -> String {
            if fields["NS.string"] == nil, let bytes = fields["NS.bytes"]?.data {
                return String(decoding: bytes, as: UTF8.self)
            }
            let field = fields["NS.string"] ?? .null
            guard let value = try archive.resolve(field, in: fieldPlace("NS.string")), case .string(let string) = value
            else {
                throw archive.failure(fieldPlace("NS.string"), "the \(className) object has no string in 'NS.string'")
            }
            return string
        }

        /// The relative string (`NS.relative`) of an `NSURL` object: a string, stored inline or
        /// as an `NSString` object.
        fileprivate func relativeURLString() throws(ModelError) -> String {
            let place = fieldPlace("NS.relative")
            guard let field = fields["NS.relative"], let value = try archive.resolve(field, in: place) else {
                throw archive.failure(place, "the \(className) object has no 'NS.relative'")
            }
            if case .string(let string) = value { return string }
            guard let string = try archive.object(field), string.isKind(of: "NSString") else {
                throw archive.failure(place, "it is \(archive.describe(field)), not a string")
            }
            return try string.archivedString()
        }

        /// The elements of an archived collection: `NS.objects`, or `NS.object.0`,
        /// `NS.object.1`, … when that is absent.
        fileprivate func archivedElements(for place: String) throws(ModelError) -> [PropertyListValue] {
            if let list = fields["NS.objects"] {
                guard case .array(let stored) = list else {
                    throw archive.failure(
                        fieldPlace("NS.objects"), "it is \(list.kindDescription), not an array of references")
                }
                return stored
            }
            var elements: [PropertyListValue] = []
            while let element = fields["NS.object.\(elements.count)"] {
                elements.append(element)
            }
            guard !elements.isEmpty || fields.keys.allSatisfy({ $0 == "$class" }) else {
                throw archive.failure(
                    place, "object \(index) is \(archive.describe(.uid(index))), not an array or set (no 'NS.objects')")
            }
            return elements
        }

        /// The entries of an archived dictionary, from `NS.keys` and `NS.objects`.
        fileprivate func archivedEntries(for place: String) throws(ModelError) -> [String: PropertyListValue] {
            guard case .array(let keys)? = fields["NS.keys"], case .array(let values)? = fields["NS.objects"] else {
                throw archive.failure(
                    place,
                    "object \(index) is \(archive.describe(.uid(index))), which has no 'NS.keys' and 'NS.objects'")
            }
            guard keys.count == values.count else {
                throw archive.failure(
                    fieldPlace("NS.keys"), "it has \(keys.count) keys but \(values.count) values in 'NS.objects'")
            }
            let names = try archive.plainElements(keys, in: fieldPlace("NS.keys"))
            let decoded = try archive.plainElements(values, in: fieldPlace("NS.objects"))
            var result: [String: PropertyListValue] = [:]
            result.reserveCapacity(keys.count)
            for (key, value) in zip(names, decoded) {
                guard case .string(let name) = key else {
                    throw archive.failure(fieldPlace("NS.keys"), "a key is \(archive.describe(key)), not a string")
                }
                result[name] = value
            }
            return result
        }
    }

    /// `elements` decoded by `plainValue(_:)`, `$null` kept as ``PropertyListValue/null``.
    fileprivate func plainElements(_ elements: [PropertyListValue], in place: String) throws(ModelError)
        -> [PropertyListValue]
    {
        var result: [PropertyListValue] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            result.append(try plainValue(element, in: place) ?? .null)
        }
        return result
    }
}
