import Foundation

/// Finds the names of the managed properties a key path reads (`\Book.author?.name` reads
/// `author`, then `name`), for typed predicates and sorts.
///
/// A property declared with `@Managed`, `@ToOne`, `@ToMany` or `@OrderedToMany` is computed,
/// so a key path to it carries no name. The probe reads the key path on a stand-in object of
/// the root class, made without a context: each property wrapper, seeing the stand-in, records
/// its property's name and gives a placeholder (a to-one relationship gives a stand-in of its
/// destination, so the path goes on), touching no store.
final class KeyPathProbe {
    /// The names read so far, in order.
    private(set) var names: [String] = []

    /// The properties `keyPath` reads from an object of `type`, as a dotted key path; `nil`
    /// when it reads anything but managed properties (a stored Swift property, a subscript,
    /// a method).
    static func path(of keyPath: AnyKeyPath, from type: ManagedObject.Type) -> String? {
        let probe = KeyPathProbe()
        let object = probe.standIn(of: type)
        guard object[keyPath: keyPath] != nil else { return nil }
        return probe.names.isEmpty ? nil : probe.names.joined(separator: ".")
    }

    /// Records that the property `name` was read.
    func record(_ name: String) {
        names.append(name)
    }

    /// A stand-in object of `type` reporting to this probe.
    func standIn<Object: ManagedObject>(of type: Object.Type) -> Object {
        let object = type.init(creating: ManagedObject.Creation(probe: self))
        return object
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
    /// A value of `Value`, made from the first stand-in value it accepts.
    static func value<Value: AttributeValueConvertible>(of type: Value.Type) -> Value {
        let candidates: [AttributeValue] = [
            .null, .integer64(0), .double(0), .string(""), .boolean(false), .decimal(0),
            .date(Date(timeIntervalSinceReferenceDate: 0)), .binary(Data()), .uuid(UUID()),
            .uri(URL(fileURLWithPath: "/")),
            .objectID(ObjectID(storeIdentifier: nil, entityName: "KeyPathProbe", reference: .temporary(UUID()))),
        ]
        for candidate in candidates {
            if let value = Value(attributeValue: candidate) { return value }
        }
        preconditionFailure("No placeholder value of \(Value.self) for a key path probe.")
    }
}
