import Foundation

/// Finds the names of the managed properties a key path reads (`\Book.author?.name` reads
/// `author`, then `name`), for typed predicates and sorts.
///
/// A property declared with `@Managed`, `@ToOne`, `@ToMany` or `@OrderedToMany` is computed,
/// so a key path to it carries no name. The probe reads the key path on a stand-in object of
/// the root class, made without a context: each property wrapper, seeing the stand-in, records
/// its property's name and gives a placeholder (a to-one relationship gives a stand-in of its
/// destination, so the path goes on), touching no store.
///
/// A key path qualifies only when it is exactly a chain of such properties: each read is on the
/// stand-in the previous one gave (the root first), and the key path's value is the last
/// property's (optionals aside). A computed Swift property reading managed ones
/// (`var isLong: Bool { pages > 100 }`) or a step past a managed property (`\Book.title.count`)
/// does not qualify.
final class KeyPathProbe {
    /// The names read so far, in order.
    private var names: [String] = []
    /// The stand-in the next read must be on; `nil` once a read gave no stand-in.
    private var expected: ManagedObject?
    /// The type of the last property read.
    private var lastType: Any.Type?
    /// Whether a read broke the chain.
    private var isBroken = false

    /// The properties `keyPath` reads from an object of `type`, as a dotted key path; `nil`
    /// when it is not a chain of managed properties.
    static func path(of keyPath: AnyKeyPath, from type: ManagedObject.Type) -> String? {
        let probe = KeyPathProbe()
        let object = probe.standIn(of: type)
        probe.expected = object
        guard object[keyPath: keyPath] != nil, !probe.isBroken, let lastType = probe.lastType,
            unwrapped(Swift.type(of: keyPath).valueType) == unwrapped(lastType)
        else { return nil }
        return probe.names.isEmpty ? nil : probe.names.joined(separator: ".")
    }

    /// Records that `object` read its property `name`, of `type`; `next` is the stand-in the
    /// read gives, if any.
    func record(_ name: String, of object: ManagedObject, type: Any.Type, next: ManagedObject? = nil) {
        if object !== expected { isBroken = true }
        names.append(name)
        lastType = type
        expected = next
    }

    /// A stand-in object of `type` reporting to this probe.
    func standIn<Object: ManagedObject>(of type: Object.Type) -> Object {
        type.init(creating: ManagedObject.Creation(probe: self))
    }

    /// `type` without the optionals around it.
    private static func unwrapped(_ type: Any.Type) -> ObjectIdentifier {
        var current = type
        while let optional = current as? any OptionalType.Type { current = optional.wrappedType }
        return ObjectIdentifier(current)
    }

    /// The entity stand-ins claim to be of; they never read it.
    fileprivate static let entity: EntitySchema = {
        let model = ManagedObjectModel { EntityDescription("KeyPathProbe") {} }
        do {
            try model.freeze()
        } catch {
            preconditionFailure("The key-path probe's model does not freeze: \(error)")
        }
        guard let entity = model.schema.entitiesByName["KeyPathProbe"] else {
            preconditionFailure("The key-path probe's model has no entity.")
        }
        return entity
    }()
}

extension ManagedObject.Creation {
    /// What makes a stand-in object for `probe`.
    init(probe: KeyPathProbe) {
        self.init(
            entity: KeyPathProbe.entity,
            objectID: ObjectID(storeIdentifier: nil, entityName: "KeyPathProbe", reference: .temporary(UUID())),
            context: nil, probe: probe)
    }
}

/// Placeholder values a property wrapper gives a probe.
enum KeyPathProbePlaceholder {
    /// A value of `Value`: its first case when it is `CaseIterable`, else the first of a few
    /// stand-in values it accepts.
    static func value<Value: AttributeValueConvertible>(of type: Value.Type) -> Value {
        if let cases = Value.self as? any CaseIterable.Type, let first = firstCase(of: cases) as? Value {
            return first
        }
        let candidates: [AttributeValue] = [
            .null, .integer64(0), .double(0), .string(""), .boolean(false), .decimal(0),
            .date(Date(timeIntervalSinceReferenceDate: 0)), .binary(Data()), .uuid(UUID()),
            .uri(URL(fileURLWithPath: "/")),
            .objectID(ObjectID(storeIdentifier: nil, entityName: "KeyPathProbe", reference: .temporary(UUID()))),
        ]
        for candidate in candidates {
            if let value = Value(attributeValue: candidate) { return value }
        }
        preconditionFailure(
            "A typed predicate or sort reads a @Managed property of type \(Value.self), which accepts none of the "
                + "stand-in values a key-path probe offers (null, 0, \"\", false, …); make \(Value.self) CaseIterable.")
    }

    private static func firstCase<Cases: CaseIterable>(of type: Cases.Type) -> Any? {
        type.allCases.first
    }
}
