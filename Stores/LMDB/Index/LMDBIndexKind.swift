import Foundation
import Strata

/// How the values of one indexed property become the middle of its index keys, so that
/// byte order is value order: a bucket byte (0 for null, 1 for a value of the property's
/// kind, 2 for any other value), then the value's ordered bytes.
enum LMDBIndexKind: Sendable, Hashable {
    /// 16-, 32- and 64-bit integers: the sign bit flipped, 8 bytes big-endian.
    case integer
    /// Doubles and floats: the IEEE bits, all flipped when negative, the sign bit flipped otherwise.
    case real
    /// Dates: their seconds since 2001 as a ``real``.
    case date
    /// Strings: their UTF-8 bytes with 0 written as 0 0xFF, cut after ``maximumStringBytes``
    /// bytes, ended by 0 0.
    case string
    /// Booleans: one byte, 0 or 1.
    case boolean
    /// To-one relationships: the destination's primary key, 8 bytes big-endian.
    case reference

    /// How many bytes of a string's escaped UTF-8 an index key keeps (at most one more);
    /// longer strings share the key of their prefix, and the evaluator tells them apart.
    /// With the prefix and the primary key, a key stays within liblmdb's 511 bytes.
    static let maximumStringBytes = 256

    /// The longest `Entity.property` prefix an index may have, for the same reason.
    static let maximumPrefixBytes = 230

    /// The kind an attribute of `type` is indexed as; `nil` for a type without an index order.
    init?(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64: self = .integer
        case .double, .float: self = .real
        case .date: self = .date
        case .string: self = .string
        case .boolean: self = .boolean
        default: return nil
        }
    }

    /// The index bytes of a stored value.
    func encode(_ value: AttributeValue) -> [UInt8] {
        if value.isNull { return [0] }
        return ordered(value).map { [1] + $0 } ?? [2]
    }

    /// The index bytes of a constant a predicate compares with, when it has an exact place in
    /// this kind's order; `nil` otherwise.
    func bound(_ value: AttributeValue) -> [UInt8]? {
        if value.isNull { return [0] }
        return ordered(value).map { [1] + $0 }
    }

    private func ordered(_ value: AttributeValue) -> [UInt8]? {
        switch (self, value) {
        case (.integer, .integer16(let number)): return Self.bytes(UInt64(bitPattern: Int64(number)) ^ (1 << 63))
        case (.integer, .integer32(let number)): return Self.bytes(UInt64(bitPattern: Int64(number)) ^ (1 << 63))
        case (.integer, .integer64(let number)): return Self.bytes(UInt64(bitPattern: number) ^ (1 << 63))
        case (.real, .double(let number)): return Self.bytes(Self.ordered(number))
        case (.real, .float(let number)): return Self.bytes(Self.ordered(Double(number)))
        case (.date, .date(let date)): return Self.bytes(Self.ordered(date.timeIntervalSinceReferenceDate))
        case (.boolean, .boolean(let flag)): return [flag ? 1 : 0]
        case (.reference, .objectID(let id)):
            return LMDBLayout.primaryKey(of: id).map { Self.bytes(UInt64(bitPattern: $0)) }
        case (.string, .string(let string)):
            var bytes: [UInt8] = []
            for byte in string.utf8 {
                guard bytes.count < Self.maximumStringBytes else { break }
                bytes.append(byte)
                if byte == 0 { bytes.append(0xFF) }
            }
            return bytes + [0, 0]
        default: return nil
        }
    }

    private static func ordered(_ number: Double) -> UInt64 {
        let bits = number.bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    private static func bytes(_ number: UInt64) -> [UInt8] { withUnsafeBytes(of: number.bigEndian) { Array($0) } }
}

/// The properties of each entity that have an index.
struct LMDBIndexes: Sendable {
    /// The indexed properties of each entity, by entity name, then by property name.
    let byEntity: [String: [String: LMDBIndexKind]]

    /// The indexes of `schema`: attributes marked indexed or first in a binary fetch index of
    /// their entity or a superentity, when their type has an index order, and every to-one
    /// relationship (a foreign-key index); none whose `Entity.property` name is longer than
    /// ``LMDBIndexKind/maximumPrefixBytes``.
    init(schema: ModelSchema) {
        var byEntity: [String: [String: LMDBIndexKind]] = [:]
        for entity in schema.entities {
            let lineage = [entity.name] + entity.superentityNames
            let fetchIndexed = Set(
                lineage.compactMap { schema.entitiesByName[$0] }.flatMap(\.description.fetchIndexes).compactMap {
                    $0.elements.first.flatMap { $0.kind == .binary ? $0.propertyName : nil }
                })
            var properties: [String: LMDBIndexKind] = [:]
            func fits(_ property: String) -> Bool {
                LMDBLayout.prefix(entity: entity.name, property: property).count <= LMDBIndexKind.maximumPrefixBytes
            }
            for attribute in entity.attributes where !attribute.isTransient && fits(attribute.name) {
                guard attribute.isIndexed || fetchIndexed.contains(attribute.name),
                    let kind = LMDBIndexKind(attribute.type)
                else { continue }
                properties[attribute.name] = kind
            }
            for relationship in entity.relationships
            where !relationship.isToMany && !relationship.isTransient && fits(relationship.name) {
                properties[relationship.name] = .reference
            }
            byEntity[entity.name] = properties
        }
        self.byEntity = byEntity
    }

    /// The keys of `snapshot`'s index entries.
    func keys(of snapshot: Snapshot) -> [[UInt8]] {
        let entity = snapshot.objectID.entityName
        guard let properties = byEntity[entity], let primaryKey = LMDBLayout.primaryKey(of: snapshot.objectID) else {
            return []
        }
        let suffix = LMDBLayout.key(primaryKey)
        return properties.map { property, kind in
            LMDBLayout.prefix(entity: entity, property: property) + kind.encode(snapshot.values[property] ?? .null)
                + suffix
        }
    }
}
