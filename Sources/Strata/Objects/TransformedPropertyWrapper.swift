/// A typed transformable attribute of a ``ManagedObject`` subclass: a value of any `Sendable`
/// type, stored as the data its value transformer makes of it.
///
/// ```swift
/// final class Poster: ManagedObject {
///     @Transformed(by: "PaletteTransformer") var palette: Palette?
/// }
///
/// var transformers = ValueTransformerRegistry()
/// transformers.register(JSONValueTransformer<Palette>(), named: "PaletteTransformer")
/// let coordinator = try PersistentStoreCoordinator(model: model, valueTransformers: transformers)
/// ```
///
/// Reading turns the stored data back into a `Value` with the transformer registered in the
/// coordinator's ``PersistentStoreCoordinator/valueTransformers``, on every read; writing
/// stores the transformer's data (see ``ManagedObject/transformedValue(forKey:)``). The property
/// reads `nil` when the attribute holds no value. A transformer that is missing, refuses the
/// value or cannot read the data, or gives a value of another type, stops the program with a
/// message naming the entity and property; use ``ManagedObject/transformedValue(forKey:as:)``
/// where such failures must be caught.
///
/// In a model made from the classes the declaration is a transformable attribute naming
/// `transformerName`, optional unless `optional` is `false`.
@propertyWrapper
public struct Transformed<Value: Sendable>: ManagedPropertyStorage {
    var isProbed = false

    /// Declares the property; its name is the attribute's name, `transformerName` the name its
    /// transformer is registered under. `optional` and `options` are read only when a model is
    /// made from the class.
    public init(
        by transformerName: String, optional: Bool = true, _ options: @autoclosure () -> AttributeOptions = []
    ) {
        guard DeclarationRecorder.isRecording else { return }
        DeclarationRecorder.report {
            var attributeOptions = options()
            attributeOptions.transformerName = transformerName
            let attribute = PropertyDeclaration.Attribute(
                valueType: Value?.self, type: .transformable, isOptional: optional, defaultValue: nil,
                options: attributeOptions)
            return PropertyDeclaration(wrapper: Self.self, kind: .attribute(attribute))
        }
    }

    /// Unavailable: `@Transformed` works only on properties of ``ManagedObject`` subclasses.
    @available(*, unavailable, message: "@Transformed works only on properties of ManagedObject subclasses")
    public var wrappedValue: Value? {
        get { preconditionFailure("@Transformed works only on properties of ManagedObject subclasses") }
        set { preconditionFailure("@Transformed works only on properties of ManagedObject subclasses") }
    }

    /// Reads and writes the attribute through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value?>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value? {
        get {
            let identity = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath)
            let key = identity.name
            if let probe = object.keyPathProbe {
                probe.record(key, of: object, type: Value?.self)
                return nil
            }
            object.observeAccess(object, identity, keyPath: wrappedKeyPath)
            return object.required { try object.transformedValue(forKey: key, as: Value.self) }
        }
        set {
            let key = object.propertyIdentity(storageKeyPath, wrapped: wrappedKeyPath).name
            object.required { try object.setTransformedValue(newValue, forKey: key) }
        }
    }
}
