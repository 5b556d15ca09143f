/// The name of a typed property and how to announce its changes to Observation.
struct PropertyIdentity {
    let name: String
    let announcer: ObservationAnnouncer
}

/// The storage of a typed property wrapper; its probe flag lets an object find the property's
/// name.
protocol ManagedPropertyStorage {
    var isProbed: Bool { get set }
}

extension ManagedPropertyStorage {
    /// Reports that a property of this wrapper type declares `relationship`, to a recording
    /// (``DeclarationRecorder``), evaluating it only on the recording thread.
    static func report(_ relationship: () -> PropertyDeclaration.Relationship) {
        DeclarationRecorder.report { PropertyDeclaration(wrapper: Self.self, kind: .relationship(relationship())) }
    }
}

extension ManagedObject {
    /// The name of the property whose wrapper storage is at `storage` (the stored property's
    /// label without its leading underscore), and how to announce its changes to Observation
    /// through `wrapped`, the key path to the property itself.
    ///
    /// Swift does not tell a property wrapper its property's name, so the first use per class
    /// and property sets the wrapper's probe flag, finds the flagged child with `Mirror`, and
    /// keeps the answer in the context's cache.
    func propertyIdentity<Object: ManagedObject, Storage: ManagedPropertyStorage, Value>(
        _ storage: ReferenceWritableKeyPath<Object, Storage>, wrapped: ReferenceWritableKeyPath<Object, Value>
    ) -> PropertyIdentity {
        guard let object = self as? Object else {
            preconditionFailure("\(type(of: self)) is not a \(Object.self).")
        }
        let context = managedObjectContext
        if let known = context?.propertyIdentities[storage] { return known }
        object[keyPath: storage].isProbed = true
        defer { object[keyPath: storage].isProbed = false }
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                guard let probe = child.value as? any ManagedPropertyStorage, probe.isProbed,
                    let label = child.label, label.hasPrefix("_")
                else { continue }
                let identity = PropertyIdentity(name: String(label.dropFirst()), announcer: .init(wrapped))
                context?.propertyIdentities[storage] = identity
                return identity
            }
            mirror = current.superclassMirror
        }
        preconditionFailure("Cannot find the name of a property of \(Object.self).")
    }

    /// The result of `body`; a failure stops the program with its message, for typed
    /// properties, which cannot throw.
    func required<T>(_ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            preconditionFailure("\(objectID): \(error)")
        }
    }

    /// `object` as `Destination`, or a stop naming the relationship.
    func typed<Destination: ManagedObject>(_ object: ManagedObject, key: String) -> Destination {
        guard let typed = object as? Destination else {
            preconditionFailure(
                "'\(entity.name).\(key)' of \(objectID) holds \(object.objectID), a \(type(of: object)), "
                    + "not a \(Destination.self); register \(Destination.self) with the coordinator.")
        }
        return typed
    }
}
