import Foundation
import Strata

/// The bits of the `_P` field in which `NSPropertyDescription` packs its flags. Each flag is
/// also archived under its own key (written only when set); Core Data reads the keys when `_P`
/// is absent or zero, and so does ``CompiledModelReader/propertyFlag(_:key:of:)``.
enum PackedPropertyFlag {
    /// `NSIsOptional`.
    static let isOptional: Int64 = 0x2
    /// `NSIsTransient`.
    static let isTransient: Int64 = 0x8
    /// `NSIsOrdered` (relationships).
    static let isOrdered: Int64 = 0x400
}

/// The bits of the `NSFlagsKey` field of an archived `NSAttributeDescription`.
enum ArchivedAttributeFlag {
    /// The attribute has a maximum, in `NSMaxValueName`.
    static let hasMaximum: Int64 = 0x1
    /// The attribute has a minimum, in `NSMinValueName`.
    static let hasMinimum: Int64 = 0x2
    /// `allowsExternalBinaryDataStorage`.
    static let allowsExternalBinaryDataStorage: Int64 = 0x4
    /// `preservesValueInHistoryOnDeletion`.
    static let preservesValueInHistoryOnDeletion: Int64 = 0x10
    /// `isFileBackedFuture`, which Strata does not support.
    static let isFileBackedFuture: Int64 = 0x20
}

extension CompiledModelReader {
    /// The fields of an archived attribute that ``attribute(_:in:)`` reads, or that only repeat
    /// what the model says (`NSEntity`).
    private static let attributeKeys: Set<String> = [
        "NSPropertyName", "NSEntity", "NSAttributeType", "_P", "NSIsOptional", "NSIsTransient", "NSDefaultValue",
        "NSFlagsKey", "NSMinValueName", "NSMaxValueName", "NSValidationPredicates", "NSValidationWarnings",
        "NSIsIndexed", "NSValueTransformerName", "NSRenamingIdentifier", "NSVersionHashModifier", "NSUserInfo",
    ]

    /// The fields a derived attribute adds: its expression, its filtering predicate, and the
    /// read-only flag every derived attribute has.
    private static let derivedAttributeKeys: Set<String> = [
        "NSDerivationExpression", "NSFilteringPredicate", "NSIsReadOnly",
    ]

    /// The flag of `property` packed in its `_P` field under `bit`, or archived under `key` when
    /// `_P` is absent or zero, as Core Data reads it.
    func propertyFlag(_ bit: Int64, key: String, of property: KeyedArchive.Object) throws(ModelError) -> Bool {
        let packed = try property.integer("_P") ?? 0
        if packed != 0 { return packed & bit != 0 }
        return try property.boolean(key) ?? false
    }

    /// The attribute described by the archived `NSAttributeDescription` (or
    /// `NSDerivedAttributeDescription`) `object`.
    ///
    /// Read: `NSPropertyName`; `NSAttributeType` (the `AttributeType` raw value); optional and
    /// transient from `_P` (see ``PackedPropertyFlag``); `NSDefaultValue` (see
    /// ``defaultValue(of:type:in:)``); `NSFlagsKey` (see ``ArchivedAttributeFlag``) with the
    /// bounds in `NSMinValueName` and `NSMaxValueName`; `NSValidationPredicates` (see
    /// ``readValidationPredicates(of:into:in:)``); `NSIsIndexed`; `NSValueTransformerName`;
    /// `NSDerivationExpression` for a derived attribute; `NSRenamingIdentifier`,
    /// `NSVersionHashModifier` and `NSUserInfo`.
    ///
    /// A composite attribute (type 2100) reads its elements, attributes themselves, from
    /// `NSCompositeElements`.
    ///
    /// - Throws: `ModelError/Code/unsupportedFormat` for a type Strata does not know, or a derived attribute Strata cannot represent: dropping the
    ///   attribute would change the entity's version hash. `ModelError/Code/malformedFile` for a
    ///   missing name or type, or a bound of the wrong kind.
    mutating func attribute(_ object: KeyedArchive.Object, in what: String) throws(ModelError)
        -> AttributeDescription
    {
        let name = try requiredString("NSPropertyName", of: object, in: "an attribute of \(what)")
        let attributeWhat = "the attribute '\(name)' of \(what)"
        let type = try attributeType(of: object, in: attributeWhat)
        let isDerived = object.isKind(of: "NSDerivedAttributeDescription")
        noteUnusedKeys(
            of: object,
            used: isDerived
                ? Self.attributeKeys.union(Self.derivedAttributeKeys)
                : type == .composite ? Self.attributeKeys.union(["NSCompositeElements"]) : Self.attributeKeys)
        var attribute = AttributeDescription(
            name: name, type: type,
            isOptional: try propertyFlag(PackedPropertyFlag.isOptional, key: "NSIsOptional", of: object))
        attribute.isTransient = try propertyFlag(PackedPropertyFlag.isTransient, key: "NSIsTransient", of: object)
        attribute.defaultValue = try defaultValue(of: object, type: type, in: attributeWhat)
        let flags = try object.integer("NSFlagsKey") ?? 0
        attribute.allowsExternalBinaryDataStorage = flags & ArchivedAttributeFlag.allowsExternalBinaryDataStorage != 0
        attribute.preservesValueInHistoryOnDeletion =
            flags & ArchivedAttributeFlag.preservesValueInHistoryOnDeletion != 0
        if flags & ArchivedAttributeFlag.isFileBackedFuture != 0 {
            skipped.skip(
                "the file-backed-future flag of \(attributeWhat)", because: "Strata does not support it.",
                at: place(of: object))
        }
        try readPackedBounds(of: object, flags: flags, into: &attribute, in: attributeWhat)
        try readValidationPredicates(of: object, into: &attribute, in: attributeWhat)
        attribute.isIndexed = try object.boolean("NSIsIndexed") ?? false
        attribute.valueTransformerName = try object.string("NSValueTransformerName")
        if isDerived {
            attribute.derivationExpression = try derivationExpression(of: object, in: attributeWhat)
        }
        attribute.renamingIdentifier = try renamingIdentifier(of: object, name: name)
        attribute.versionHashModifier = try object.string("NSVersionHashModifier")
        attribute.userInfo = try userInfo(of: object, in: attributeWhat)
        if type == .composite {
            for element in try object.objects("NSCompositeElements") ?? [] {
                attribute.elements.append(try self.attribute(element, in: attributeWhat))
            }
        }
        return attribute
    }

    /// The type of the attribute `object` (field `NSAttributeType`, Core Data's
    /// `NSAttributeType` code).
    private func attributeType(of object: KeyedArchive.Object, in what: String) throws(ModelError) -> AttributeType {
        guard let code = try object.integer("NSAttributeType") else {
            throw malformed(object, "\(what) has no type ('NSAttributeType')")
        }
        guard let rawValue = UInt32(exactly: code), let type = AttributeType(rawValue: rawValue) else {
            throw ModelError(
                code: .unsupportedFormat,
                message: "'\(file)': \(what) has the attribute type code \(code), which Strata does not know.",
                filePath: file)
        }
        return type
    }

    /// Reads the bounds Core Data packs into `NSMinValueName` and `NSMaxValueName`, flagged in
    /// `flags` (see ``ArchivedAttributeFlag``).
    ///
    /// Integer attributes keep integer bounds, String attributes integer lengths; the bounds of
    /// other types are real numbers: values for Decimal, Double and Float, seconds since
    /// 1 January 2001 for Date, lengths for Binary. A bound on an attribute of another type, or
    /// one that does not fit the attribute's type, is skipped and logged.
    private mutating func readPackedBounds(
        of object: KeyedArchive.Object, flags: Int64, into attribute: inout AttributeDescription, in what: String
    ) throws(ModelError) {
        let bounds = [
            (ArchivedAttributeFlag.hasMinimum, "NSMinValueName", true),
            (ArchivedAttributeFlag.hasMaximum, "NSMaxValueName", false),
        ]
        for (bit, key, isMinimum) in bounds where flags & bit != 0 {
            let found: Bound?
            switch attribute.type {
            case .integer16, .integer32, .integer64:
                let integer = try requiredInteger(key, of: object, in: what)
                found = attribute.type.coerce(.integer64(integer)).map(Bound.value)
            case .string:
                let length = try requiredInteger(key, of: object, in: what)
                found = Int(exactly: length).map(Bound.length)
            case .binary:
                let length = try requiredReal(key, of: object, in: what)
                found = Int(exactly: length).map(Bound.length)
            case .decimal:
                let number = try requiredReal(key, of: object, in: what)
                found = AttributeValue.parseDecimal(String(number)).map { Bound.value(.decimal($0)) }
            case .double, .float:
                let number = try requiredReal(key, of: object, in: what)
                found = attribute.type.coerce(.double(number)).map(Bound.value)
            case .date:
                let seconds = try requiredReal(key, of: object, in: what)
                found = .value(.date(Date(timeIntervalSinceReferenceDate: seconds)))
            case .undefined, .boolean, .uuid, .uri, .transformable, .objectID, .composite:
                found = nil
            }
            guard let bound = found else {
                skipped.skip(
                    "the \(isMinimum ? "minimum" : "maximum") of \(what)",
                    because: "it does not fit an attribute of type \(attribute.type.modelFileName).",
                    at: place(of: object))
                continue
            }
            Self.apply(bound, isMinimum: isMinimum, to: &attribute)
        }
    }

    /// A bound of an attribute: a value (numbers and dates) or a length (strings and data).
    enum Bound {
        /// A smallest or largest value.
        case value(AttributeValue)
        /// A smallest or largest length.
        case length(Int)
    }

    /// Sets `bound` as the minimum (or maximum) of `attribute`.
    static func apply(_ bound: Bound, isMinimum: Bool, to attribute: inout AttributeDescription) {
        switch (bound, isMinimum) {
        case (.value(let value), true): attribute.minValue = value
        case (.value(let value), false): attribute.maxValue = value
        case (.length(let length), true): attribute.minLength = length
        case (.length(let length), false): attribute.maxLength = length
        }
    }

    /// The integer in the field `key` of `object`, which a flag says is there.
    private func requiredInteger(_ key: String, of object: KeyedArchive.Object, in what: String) throws(ModelError)
        -> Int64
    {
        guard let value = try object.integer(key) else {
            throw malformed(object, "\(what) is flagged with a bound, but has no '\(key)'")
        }
        return value
    }

    /// The number in the field `key` of `object`, which a flag says is there.
    private func requiredReal(_ key: String, of object: KeyedArchive.Object, in what: String) throws(ModelError)
        -> Double
    {
        guard let value = try object.real(key) else {
            throw malformed(object, "\(what) is flagged with a bound, but has no '\(key)'")
        }
        return value
    }

    /// The derivation expression of the derived attribute `object` (field
    /// `NSDerivationExpression`, an archived `NSExpression`), in format syntax.
    ///
    /// `count:(path)`, the form Core Data gives `path.@count`, is written `path.@count`, as in
    /// a model file; Strata hashes both the same way (see `VersionHash`).
    ///
    /// - Throws: `ModelError/Code/unsupportedFormat` when Strata cannot express the expression,
    ///   or the attribute has a filtering predicate (`NSFilteringPredicate`), which Strata has
    ///   no place for; `ModelError/Code/malformedFile` when the expression is missing.
    private func derivationExpression(of object: KeyedArchive.Object, in what: String) throws(ModelError) -> String {
        guard let archived = try object.object("NSDerivationExpression") else {
            throw malformed(object, "the derived \(what) has no expression ('NSDerivationExpression')")
        }
        if try object.object("NSFilteringPredicate") != nil {
            throw ModelError(
                code: .unsupportedFormat,
                message: "'\(file)': the derived \(what) has a filtering predicate, which Strata does not support.",
                filePath: file)
        }
        let expression: FetchExpression
        do throws(ModelError) {
            expression = try decodeExpression(archived, depth: 0)
        } catch {
            guard error.code == .unsupportedFormat else { throw error }
            throw ModelError(
                code: .unsupportedFormat,
                message: "'\(file)': Strata cannot express the derivation of the derived \(what). \(error.message)",
                filePath: file)
        }
        if case .function("count:", let arguments) = expression, arguments.count == 1,
            case .keyPath(let path) = arguments[0]
        {
            return path + ".@count"
        }
        return expression.description
    }
}
