/// A typed attribute of a ``ManagedObject`` subclass, stored under the property's own name.
///
/// ```swift
/// final class Book: ManagedObject {
///     @Managed var title: String    // a non-optional attribute
///     @Managed var pages: Int32?    // nil reads and writes no value
/// }
/// ```
///
/// Reading converts the stored value to `Value` (an optional property reads `nil` for no
/// value); writing converts `Value` to the attribute's type. A mismatch between the
/// declaration and the model — no attribute of that name, a type that cannot hold the value —
/// stops the program with a message naming the entity and property, as does a fault that
/// cannot be fulfilled when ``ManagedObjectContext/shouldDeleteInaccessibleFaults`` is off.
/// Use ``ManagedObject/value(forKey:)`` where such failures must be caught.
///
/// In a model made from the classes (``ManagedObjectModel/init(types:configurations:versionIdentifiers:)``)
/// the declaration is the attribute: its type is `Value`'s (``AttributeValueConvertible/attributeType``),
/// it is optional when `Value` is, an initial value is its default value, and ``AttributeOptions``
/// add the rest:
///
/// ```swift
/// @Managed(.unique) var isbn: String
/// @Managed var pages: Int32 = 0
/// ```
///
/// Property wrappers, not macros: they need no compiler plug-in or swift-syntax build, so
/// a model's classes compile as fast as any other code, and what a property does is read
/// off one small type.
@propertyWrapper
public struct Managed<Value: AttributeValueConvertible>: ManagedPropertyStorage {
    var isProbed = false

    /// Declares the property; its name is the attribute's name. `options` are read only when a
    /// model is made from the class.
    public init(_ options: @autoclosure () -> AttributeOptions = []) {
        if DeclarationRecorder.isRecording { Self.report(defaultValue: { nil }, options: options) }
    }

    /// Declares the property with a default value: what a new object starts with, in a model
    /// made from the class. The value is read only when such a model is made.
    public init(wrappedValue: @autoclosure () -> Value, _ options: @autoclosure () -> AttributeOptions = []) {
        if DeclarationRecorder.isRecording {
            Self.report(defaultValue: { wrappedValue().attributeValue }, options: options)
        }
    }

    /// Reports the declaration to the recording thread, evaluating `defaultValue` and `options`
    /// only there.
    private static func report(defaultValue: () -> AttributeValue?, options: () -> AttributeOptions) {
        DeclarationRecorder.report {
            let attribute = PropertyDeclaration.Attribute(
                valueType: Value.self, type: Value.attributeType, isOptional: Value.self is any OptionalType.Type,
                defaultValue: defaultValue(), options: options())
            return PropertyDeclaration(wrapper: Self.self, kind: .attribute(attribute))
        }
    }

    /// Unavailable: `@Managed` works only on properties of ``ManagedObject`` subclasses.
    @available(*, unavailable, message: "@Managed works only on properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { preconditionFailure("@Managed works only on properties of ManagedObject subclasses") }
        set { preconditionFailure("@Managed works only on properties of ManagedObject subclasses") }
    }

    /// Reads and writes the attribute through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            let identity = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath)
            let key = identity.name
            if let probe = object.keyPathProbe {
                probe.record(key, of: object, type: Value.self)
                return KeyPathProbePlaceholder.value(of: Value.self)
            }
            object.observeAccess(object, identity, keyPath: wrappedKeyPath)
            let value = object.required { try object.value(forKey: key) }
            guard let typed = Value(attributeValue: value) else {
                preconditionFailure(
                    "'\(object.entity.name).\(key)' of \(object.objectID) holds \(value), which is not a \(Value.self); "
                        + "declare the property optional or fix its type.")
            }
            return typed
        }
        set {
            let key = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath).name
            object.required { try object.setValue(newValue.attributeValue, forKey: key) }
        }
    }
}

/// A typed to-one relationship of a ``ManagedObject`` subclass; setting it updates the inverse.
///
/// ```swift
/// @ToOne var author: Author?
/// ```
@propertyWrapper
public struct ToOne<Destination: ManagedObject>: ManagedPropertyStorage {
    var isProbed = false

    /// Declares the relationship; its name is the property's name. The arguments describe it in a
    /// model made from the class (``ManagedObjectModel/init(types:configurations:versionIdentifiers:)``),
    /// which reads them only then: `inverse` names the relationship pointing back (name it on one
    /// side only; the other finds it), `optional` whether it may be empty when saved,
    /// `transient` whether it is never stored, `originalName` its name in an earlier model version
    /// and `hashModifier` a string mixed into its version hash.
    public init(
        inverse: @autoclosure () -> (PartialKeyPath<Destination> & Sendable)? = nil,
        deleteRule: RelationshipDescription.DeleteRule = .nullify, optional: Bool = true,
        transient: Bool = false, originalName: String? = nil, hashModifier: String? = nil
    ) {
        guard DeclarationRecorder.isRecording else { return }
        Self.report {
            PropertyDeclaration.Relationship(
                destination: Destination.self, isToMany: false, isOrdered: false, inverse: inverse(),
                deleteRule: deleteRule, isOptional: optional, minCount: optional ? 0 : 1, maxCount: 1,
                isTransient: transient, originalName: originalName, hashModifier: hashModifier)
        }
    }

    /// Unavailable: `@ToOne` works only on properties of ``ManagedObject`` subclasses.
    @available(*, unavailable, message: "@ToOne works only on properties of ManagedObject subclasses")
    public var wrappedValue: Destination? {
        get { preconditionFailure("@ToOne works only on properties of ManagedObject subclasses") }
        set { preconditionFailure("@ToOne works only on properties of ManagedObject subclasses") }
    }

    /// Reads and writes the relationship through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Destination?>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Destination? {
        get {
            let identity = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath)
            let key = identity.name
            if let probe = object.keyPathProbe {
                let next = probe.standIn(of: Destination.self)
                probe.record(key, of: object, type: Destination.self, next: next)
                return next
            }
            object.observeAccess(object, identity, keyPath: wrappedKeyPath)
            return object.required { try object.object(forKey: key) }.map { object.typed($0, key: key) }
        }
        set {
            let key = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath).name
            object.required { try object.setObject(newValue, forKey: key) }
        }
    }
}

/// A typed unordered to-many relationship of a ``ManagedObject`` subclass; changing it updates
/// the inverses.
///
/// ```swift
/// @ToMany var books: Set<Book>
/// ```
@propertyWrapper
public struct ToMany<Destination: ManagedObject>: ManagedPropertyStorage {
    var isProbed = false

    /// Declares the relationship; its name is the property's name. The arguments describe it in a
    /// model made from the class (``ManagedObjectModel/init(types:configurations:versionIdentifiers:)``),
    /// which reads them only then: `inverse` names the relationship pointing back (name it on one
    /// side only; the other finds it), `optional` whether it may be empty when saved,
    /// `minimumCount` and `maximumCount` (0: no limit) bound how many objects it holds when saved,
    /// `transient` whether it is never stored, `originalName` its name in an earlier model version
    /// and `hashModifier` a string mixed into its version hash.
    public init(
        inverse: @autoclosure () -> (PartialKeyPath<Destination> & Sendable)? = nil,
        deleteRule: RelationshipDescription.DeleteRule = .nullify, optional: Bool = true,
        minimumCount: Int = 0, maximumCount: Int = 0,
        transient: Bool = false, originalName: String? = nil, hashModifier: String? = nil
    ) {
        guard DeclarationRecorder.isRecording else { return }
        Self.report {
            PropertyDeclaration.Relationship(
                destination: Destination.self, isToMany: true, isOrdered: false, inverse: inverse(),
                deleteRule: deleteRule, isOptional: optional, minCount: minimumCount, maxCount: maximumCount,
                isTransient: transient, originalName: originalName, hashModifier: hashModifier)
        }
    }

    /// Unavailable: `@ToMany` works only on properties of ``ManagedObject`` subclasses.
    @available(*, unavailable, message: "@ToMany works only on properties of ManagedObject subclasses")
    public var wrappedValue: Set<Destination> {
        get { preconditionFailure("@ToMany works only on properties of ManagedObject subclasses") }
        set { preconditionFailure("@ToMany works only on properties of ManagedObject subclasses") }
    }

    /// Reads and writes the relationship through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Set<Destination>>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Set<Destination> {
        get {
            let identity = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath)
            let key = identity.name
            if let probe = object.keyPathProbe {
                probe.record(key, of: object, type: Set<Destination>.self)
                return []
            }
            object.observeAccess(object, identity, keyPath: wrappedKeyPath)
            return Set(object.required { try object.objects(forKey: key) }.map { object.typed($0, key: key) })
        }
        set {
            let key = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath).name
            let current = object.required { try object.objects(forKey: key) }
            let kept = current.filter { ($0 as? Destination).map(newValue.contains) ?? false }
            let keptSet = Set(kept)
            let added: [ManagedObject] = newValue.filter { !keptSet.contains($0) }
            object.required { try object.setObjects(kept + added, forKey: key) }
        }
    }
}

/// A typed ordered to-many relationship of a ``ManagedObject`` subclass; changing it updates
/// the inverses.
///
/// ```swift
/// @OrderedToMany var chapters: [Chapter]
/// ```
@propertyWrapper
public struct OrderedToMany<Destination: ManagedObject>: ManagedPropertyStorage {
    var isProbed = false

    /// Declares the relationship; its name is the property's name. The arguments describe it in a
    /// model made from the class (``ManagedObjectModel/init(types:configurations:versionIdentifiers:)``),
    /// which reads them only then: `inverse` names the relationship pointing back (name it on one
    /// side only; the other finds it), `optional` whether it may be empty when saved,
    /// `minimumCount` and `maximumCount` (0: no limit) bound how many objects it holds when saved,
    /// `transient` whether it is never stored, `originalName` its name in an earlier model version
    /// and `hashModifier` a string mixed into its version hash.
    public init(
        inverse: @autoclosure () -> (PartialKeyPath<Destination> & Sendable)? = nil,
        deleteRule: RelationshipDescription.DeleteRule = .nullify, optional: Bool = true,
        minimumCount: Int = 0, maximumCount: Int = 0,
        transient: Bool = false, originalName: String? = nil, hashModifier: String? = nil
    ) {
        guard DeclarationRecorder.isRecording else { return }
        Self.report {
            PropertyDeclaration.Relationship(
                destination: Destination.self, isToMany: true, isOrdered: true, inverse: inverse(),
                deleteRule: deleteRule, isOptional: optional, minCount: minimumCount, maxCount: maximumCount,
                isTransient: transient, originalName: originalName, hashModifier: hashModifier)
        }
    }

    /// Unavailable: `@OrderedToMany` works only on properties of ``ManagedObject`` subclasses.
    @available(*, unavailable, message: "@OrderedToMany works only on properties of ManagedObject subclasses")
    public var wrappedValue: [Destination] {
        get { preconditionFailure("@OrderedToMany works only on properties of ManagedObject subclasses") }
        set { preconditionFailure("@OrderedToMany works only on properties of ManagedObject subclasses") }
    }

    /// Reads and writes the relationship through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, [Destination]>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> [Destination] {
        get {
            let identity = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath)
            let key = identity.name
            if let probe = object.keyPathProbe {
                probe.record(key, of: object, type: [Destination].self)
                return []
            }
            object.observeAccess(object, identity, keyPath: wrappedKeyPath)
            return object.required { try object.objects(forKey: key) }.map { object.typed($0, key: key) }
        }
        set {
            let key = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath).name
            object.required { try object.setObjects(newValue, forKey: key) }
        }
    }
}
