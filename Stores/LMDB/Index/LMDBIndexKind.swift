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
    /// The conditions of partial indexes, by entity name, then by property name: such a
    /// property has entries only for the objects that meet its condition.
    let partial: [String: [String: FetchPredicate]]

    /// The indexes of `schema`: attributes marked indexed or named by any element of a fetch
    /// index (binary or R-tree, every element of a compound one) of their entity or a
    /// superentity, when their type has an index order, and every to-one relationship (a
    /// foreign-key index); none whose `Entity.property` name is longer than
    /// ``LMDBIndexKind/maximumPrefixBytes``. A property only partial fetch indexes name is
    /// partial, with the condition of the first of them.
    init(schema: ModelSchema) {
        var byEntity: [String: [String: LMDBIndexKind]] = [:]
        var partial: [String: [String: FetchPredicate]] = [:]
        for entity in schema.entities {
            let lineage = [entity.name] + entity.superentityNames
            let fetchIndexes = lineage.compactMap { schema.entitiesByName[$0] }.flatMap(\.description.fetchIndexes)
            var whole: Set<String> = []
            var conditions: [String: FetchPredicate] = [:]
            for index in fetchIndexes {
                let names = index.elements.map(\.propertyName)
                // A condition that reads anything but the record (the clock, a variable, another
                // object) could change without the record: such an index has entries for all.
                guard let format = index.partialIndexPredicate, let condition = try? FetchPredicate(format: format),
                    Self.readsOnlyTheRecord(condition)
                else {
                    whole.formUnion(names)
                    continue
                }
                for name in names where conditions[name] == nil { conditions[name] = condition }
            }
            var properties: [String: LMDBIndexKind] = [:]
            func fits(_ property: String) -> Bool {
                LMDBLayout.prefix(entity: entity.name, property: property).count <= LMDBIndexKind.maximumPrefixBytes
            }
            for attribute in entity.attributes where !attribute.isTransient && fits(attribute.name) {
                let isWhole = attribute.isIndexed || whole.contains(attribute.name)
                guard isWhole || conditions[attribute.name] != nil, let kind = LMDBIndexKind(attribute.type) else {
                    continue
                }
                properties[attribute.name] = kind
                if !isWhole { partial[entity.name, default: [:]][attribute.name] = conditions[attribute.name] }
            }
            for relationship in entity.relationships
            where !relationship.isToMany && !relationship.isTransient && fits(relationship.name) {
                properties[relationship.name] = .reference
            }
            byEntity[entity.name] = properties
        }
        self.byEntity = byEntity
        self.partial = partial
    }

    /// Whether `predicate` compares only the record's own attributes with constants.
    private static func readsOnlyTheRecord(_ predicate: FetchPredicate) -> Bool {
        func isPlain(_ expression: FetchExpression) -> Bool {
            switch expression {
            case .keyPath(let key): !key.contains(".")
            case .constant: true
            case .aggregate(let items): items.allSatisfy(isPlain)
            default: false
            }
        }
        switch predicate {
        case .constant: return true
        case .and(let parts), .or(let parts): return parts.allSatisfy(readsOnlyTheRecord)
        case .not(let inner): return readsOnlyTheRecord(inner)
        case .comparison(let comparison):
            return comparison.modifier == .direct && isPlain(comparison.left) && isPlain(comparison.right)
        }
    }

    private init(byEntity: [String: [String: LMDBIndexKind]], partial: [String: [String: FetchPredicate]]) {
        self.byEntity = byEntity
        self.partial = partial
    }

    /// Every index as `Entity.property=kind`, with ` WHERE` and the condition of a partial one,
    /// sorted: what the file records of the indexes its entries were written for.
    var signature: [String] {
        byEntity.flatMap { entity, properties in
            properties.map { property, kind in signature(entity, property, kind) }
        }
        .sorted()
    }

    private func signature(_ entity: String, _ property: String, _ kind: LMDBIndexKind) -> String {
        "\(entity).\(property)=\(kind)" + (partial[entity]?[property].map { " WHERE \($0)" } ?? "")
    }

    /// These indexes, kept only where `signature` lists them: the ones a read-only store can
    /// trust, its file having entries for them.
    func restricted(to signature: Set<String>) -> LMDBIndexes {
        LMDBIndexes(
            byEntity: byEntity.reduce(into: [:]) { result, entry in
                result[entry.key] = entry.value.filter {
                    signature.contains(self.signature(entry.key, $0.key, $0.value))
                }
            },
            partial: partial)
    }

    /// The kind of `entity`'s index of `property` when a fetch whose top-level conditions are
    /// `conjuncts` may search it: a partial index only when they include every part of its
    /// condition, so that every object they match has an entry.
    func kind(of property: String, in entity: String, conjuncts: Set<FetchPredicate>) -> LMDBIndexKind? {
        guard let kind = byEntity[entity]?[property] else { return nil }
        guard let condition = partial[entity]?[property] else { return kind }
        return Set(condition.conjuncts).isSubset(of: conjuncts) ? kind : nil
    }

    /// The keys of `snapshot`'s index entries.
    func keys(of snapshot: Snapshot) -> [[UInt8]] {
        let entity = snapshot.objectID.entityName
        guard let properties = byEntity[entity], let primaryKey = LMDBLayout.primaryKey(of: snapshot.objectID) else {
            return []
        }
        let suffix = LMDBLayout.key(primaryKey)
        let conditions = partial[entity] ?? [:]
        let record =
            conditions.isEmpty ? nil : KeyValueRecord(snapshot.values.dictionary.mapValues { ResolvedValue.value($0) })
        return properties.compactMap { property, kind in
            // An object the condition cannot be decided for keeps its entry: more entries only
            // mean more candidates, which the fetch's own evaluation filters.
            if let condition = conditions[property], let record, (try? condition.evaluate(with: record)) == false {
                return nil
            }
            return LMDBLayout.prefix(entity: entity, property: property)
                + kind.encode(snapshot.values[property] ?? .null) + suffix
        }
    }
}
