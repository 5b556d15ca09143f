import Foundation

/// Core Data's version hashes, computed with the byte layout in
/// `docs/COREDATA-FORMATS.md` §E so that they equal Apple's for the same model.
///
/// A hash depends only on persisted structure: names, types, optionality, external binary
/// storage, relationship ends and counts, inheritance, uniqueness constraints, derivation
/// expressions and version-hash modifiers. Transient and fetched properties, indexes, default values,
/// validation rules and user info do not change it.
enum VersionHash {
    /// The hash of an entity. `lineage` runs from the root down to `entity` itself.
    static func entity(
        _ entity: EntityDescription, superentityHash: [UInt8]?, lineage: [EntityDescription]
    ) -> [UInt8] {
        var bytes = Array(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let superentityHash { bytes += superentityHash }
        var properties: [(name: String, hash: [UInt8])] = []
        for ancestor in lineage {
            properties += ancestor.attributes.filter { !$0.isTransient }.map { ($0.name, attribute($0)) }
            properties += ancestor.relationships.filter { !$0.isTransient }.map { ($0.name, relationship($0)) }
        }
        properties.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        for property in properties { bytes += property.hash }
        for constraint in entity.uniquenessConstraints { bytes += Array(constraint.joined(separator: ".").utf8) }
        if let modifier = entity.versionHashModifier { bytes += Array(modifier.utf8) }
        return SHA2.sha256(bytes)
    }

    /// The hash of an attribute.
    ///
    /// A derived attribute is hashed from its derivation expression alone: SHA-256 of the
    /// expression's text in Core Data's form (see ``derivationText(_:)``), without its name,
    /// flags or type. The CoreDataPlus `SampleModel2` stores (`Book.pagesCount`, derived from
    /// `pages.@count`) show this; see `docs/COREDATA-FORMATS.md` §E.1. A version-hash modifier
    /// is appended as for other properties, which no fixture tests.
    static func attribute(_ attribute: AttributeDescription) -> [UInt8] {
        if attribute.type == .composite { return composite(attribute) }
        if let expression = attribute.derivationExpression {
            var bytes = Array(derivationText(expression).utf8)
            if let modifier = attribute.versionHashModifier { bytes += Array(modifier.utf8) }
            return SHA2.sha256(bytes)
        }
        var bytes = property(name: attribute.name, isOptional: attribute.isOptional)
        bytes += littleEndian(attribute.type.rawValue)
        if attribute.allowsExternalBinaryDataStorage { bytes.append(1) }
        if attribute.preservesValueInHistoryOnDeletion { bytes.append(1) }
        if let modifier = attribute.versionHashModifier { bytes += Array(modifier.utf8) }
        return SHA2.sha256(bytes)
    }

    /// The hash of a composite attribute: SHA-256 over the hashes of its stored leaf elements
    /// (nested composites flattened), ordered by their own names. This follows Core Data's
    /// `NSCompositeAttributeDescription`; no Apple store with a composite attribute has checked
    /// it (see `docs/COREDATA-FORMATS.md` §E).
    static func composite(_ attribute: AttributeDescription) -> [UInt8] {
        func leaves(_ elements: [AttributeDescription]) -> [AttributeDescription] {
            elements.flatMap { $0.type == .composite ? leaves($0.elements) : [$0] }
        }
        let stored = leaves(attribute.elements).filter { !$0.isTransient }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return SHA2.sha256(stored.flatMap { Self.attribute($0) })
    }

    /// The hash of a relationship.
    static func relationship(_ relationship: RelationshipDescription) -> [UInt8] {
        var bytes = property(name: relationship.name, isOptional: relationship.isOptional)
        bytes += Array(relationship.destinationEntityName.utf8)
        bytes += Array((relationship.inverseName ?? "").utf8)
        bytes += littleEndian(UInt32(truncatingIfNeeded: relationship.isToMany ? relationship.maxCount : 1))
        bytes += littleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered { bytes.append(1) }
        if let modifier = relationship.versionHashModifier { bytes += Array(modifier.utf8) }
        return SHA2.sha256(bytes)
    }

    /// A derivation expression in the text form Core Data hashes: a key path ending in
    /// `.@count` becomes the `count:` function (`pages.@count` is hashed as `count:(pages)`, as
    /// Core Data stores it); any other expression is hashed as written, after trimming spaces.
    static func derivationText(_ expression: String) -> String {
        let text = expression.trimmingCharacters(in: .whitespaces)
        let suffix = ".@count"
        guard text.hasSuffix(suffix) else { return text }
        let keyPath = text.dropLast(suffix.count)
        let isKeyPath = keyPath.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.first, first == "_" || first.isLetter else { return false }
            return part.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
        }
        return isKeyPath ? "count:(\(keyPath))" : text
    }

    /// The inner hash shared by every property: name, optional flag, and a zero byte.
    private static func property(name: String, isOptional: Bool) -> [UInt8] {
        SHA2.sha256(Array(name.utf8) + [isOptional ? 1 : 0, 0])
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }

    /// `NSStoreModelVersionHashesDigest`: SHA-512 over each entity's name and hash, by name.
    static func modelDigest(_ hashes: [String: [UInt8]]) -> [UInt8] {
        SHA2.sha512(hashes.keys.sorted().flatMap { Array($0.utf8) + hashes[$0]! })
    }

    /// `NSStoreModelVersionChecksumKey`: SHA-256 over each entity's hash, by entity name.
    static func modelChecksum(_ hashes: [String: [UInt8]]) -> [UInt8] {
        SHA2.sha256(hashes.keys.sorted().flatMap { hashes[$0]! })
    }
}
