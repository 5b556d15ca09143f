/// Attribute values and to-one references by property name: what a ``Snapshot`` and a
/// ``StoreChangeSet/ObjectChange`` carry.
///
/// Read and write it as a dictionary (`values["title"]`, `for (key, value) in values`,
/// `["title": "Dune"]`). Underneath, values made by the core or a built-in store sit in an
/// array indexed by the entity's slots (``EntitySchema/slotNames``), which the core and the
/// stores read without hashing names: build them with ``init(entity:slots:)`` and read them
/// with ``slots(for:)``. Values made from a dictionary stay a dictionary; both forms compare
/// equal when they hold the same values.
public struct PropertyValues: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private enum Storage: Sendable {
        case named([String: AttributeValue])
        case slotted(EntitySchema, [AttributeValue])
    }

    private var storage: Storage

    /// No values.
    public init() { storage = .named([:]) }

    /// The values in `dictionary`.
    public init(_ dictionary: [String: AttributeValue]) { storage = .named(dictionary) }

    public init(dictionaryLiteral elements: (String, AttributeValue)...) {
        storage = .named(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// Every persistent value of `entity`, one per persistent slot in slot order
    /// (``EntitySchema/persistentSlotCount`` of them; ``AttributeValue/null`` when empty).
    public init(entity: EntitySchema, slots: [AttributeValue]) {
        precondition(
            slots.count == entity.persistentSlotCount,
            "'\(entity.name)' has \(entity.persistentSlotCount) persistent slots, not \(slots.count).")
        storage = .slotted(entity, slots)
    }

    /// The values in slot order when they are `entity`'s, held by slot; `nil` otherwise (then
    /// read them by name).
    public func slots(for entity: EntitySchema) -> [AttributeValue]? {
        guard let slotted, slotted.entity === entity else { return nil }
        return slotted.slots
    }

    /// These values held by the slots of `entity` when their keys are exactly its persistent
    /// slot names (``EntitySchema/slotNames``, the first ``EntitySchema/persistentSlotCount``);
    /// otherwise these values as they are. A store that reads values by name calls it once per
    /// object, so that the core loads them without looking each one up.
    public func bySlots(of entity: EntitySchema) -> PropertyValues {
        guard case .named(let values) = storage, values.count == entity.persistentSlotCount else { return self }
        var slots = [AttributeValue](repeating: .null, count: values.count)
        for (name, value) in values {
            guard let slot = entity.slot(of: name), slot < slots.count else { return self }
            slots[slot] = value
        }
        return PropertyValues(entity: entity, slots: slots)
    }

    /// The entity whose slots hold the values, when they are held by slot; `nil` when they are
    /// held by name. Values held by `entity`'s slots have exactly its persistent slot names as
    /// keys.
    public var entity: EntitySchema? { slotted?.entity }

    /// The values with `transform` applied to each, held as these are.
    public func mapValues(_ transform: (AttributeValue) -> AttributeValue) -> PropertyValues {
        var mapped = self
        switch storage {
        case .named(let values): mapped.storage = .named(values.mapValues(transform))
        case .slotted(let entity, let slots): mapped.storage = .slotted(entity, slots.map(transform))
        }
        return mapped
    }

    /// The entity and the values by slot, when held so.
    var slotted: (entity: EntitySchema, slots: [AttributeValue])? {
        guard case .slotted(let entity, let slots) = storage else { return nil }
        return (entity, slots)
    }

    /// The value for `key`, or `nil` when there is none.
    public subscript(key: String) -> AttributeValue? {
        get {
            switch storage {
            case .named(let values): return values[key]
            case .slotted(let entity, let slots):
                guard let slot = entity.slot(of: key), slot < slots.count else { return nil }
                return slots[slot]
            }
        }
        set {
            if case .slotted(let entity, var slots) = storage, let newValue, let slot = entity.slot(of: key),
                slot < slots.count
            {
                storage = .named([:])
                slots[slot] = newValue
                storage = .slotted(entity, slots)
                return
            }
            var values = dictionary
            storage = .named([:])
            values[key] = newValue
            storage = .named(values)
        }
    }

    /// How many keys have a value.
    public var count: Int {
        switch storage {
        case .named(let values): values.count
        case .slotted(_, let slots): slots.count
        }
    }

    /// Whether no key has a value.
    public var isEmpty: Bool { count == 0 }

    /// The keys that have a value.
    public var keys: [String] { map(\.key) }

    /// The values as a dictionary.
    public var dictionary: [String: AttributeValue] {
        switch storage {
        case .named(let values): return values
        case .slotted: return Dictionary(uniqueKeysWithValues: map { ($0.key, $0.value) })
        }
    }

    /// Every key and its value, in slot order when held by slot.
    public struct Iterator: IteratorProtocol {
        fileprivate enum Source {
            case named(Dictionary<String, AttributeValue>.Iterator)
            case slotted([String], IndexingIterator<[AttributeValue]>, Int)
        }

        fileprivate var source: Source

        public mutating func next() -> (key: String, value: AttributeValue)? {
            switch source {
            case .named(var iterator):
                let next = iterator.next()
                source = .named(iterator)
                return next
            case .slotted(let names, var iterator, let position):
                guard let value = iterator.next() else { return nil }
                source = .slotted(names, iterator, position + 1)
                return (names[position], value)
            }
        }
    }

    public func makeIterator() -> Iterator {
        switch storage {
        case .named(let values): Iterator(source: .named(values.makeIterator()))
        case .slotted(let entity, let slots): Iterator(source: .slotted(entity.slotNames, slots.makeIterator(), 0))
        }
    }

    public static func == (lhs: PropertyValues, rhs: PropertyValues) -> Bool {
        if case .slotted(let left, let leftSlots) = lhs.storage, case .slotted(let right, let rightSlots) = rhs.storage,
            left === right
        {
            return leftSlots == rightSlots
        }
        return lhs.dictionary == rhs.dictionary
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, as a dictionary's, so that both forms of equal values hash alike.
        var combined = 0
        for (key, value) in self {
            var pair = Hasher()
            pair.combine(key)
            pair.combine(value)
            combined ^= pair.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }

    public var description: String { dictionary.description }
}
