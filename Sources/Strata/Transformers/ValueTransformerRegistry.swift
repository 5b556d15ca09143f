import Foundation

/// Turns the values of a transformable attribute into data for storage, and back.
///
/// Register transformers by name in a ``ValueTransformerRegistry``; an attribute names its
/// transformer in ``AttributeDescription/valueTransformerName``.
public protocol AttributeValueTransformer: Sendable {
    /// The stored form of `value`.
    func data(from value: any Sendable) throws -> Data
    /// The value whose stored form is `data`.
    func value(from data: Data) throws -> any Sendable
}

/// Value transformers by name, handed to a coordinator (there is no global registry).
///
/// ```swift
/// var transformers = ValueTransformerRegistry()
/// transformers.register(JSONValueTransformer<Palette>(), named: "PaletteTransformer")
/// let coordinator = try PersistentStoreCoordinator(model: model, valueTransformers: transformers)
/// ```
///
/// Every registry starts with Core Data's own transformer, ``KeyedArchiveValueTransformer``,
/// under Apple's names ``secureUnarchiveFromData`` and ``keyedUnarchiveFromData``.
/// ``JSONValueTransformer`` stores any `Codable` value; register it under the name your model
/// uses.
public struct ValueTransformerRegistry: Sendable {
    /// `NSSecureUnarchiveFromData`: the name Core Data gives its secure keyed-archive transformer.
    public static let secureUnarchiveFromData = "NSSecureUnarchiveFromData"
    /// `NSKeyedUnarchiveFromData`: the name of Core Data's older keyed-archive transformer.
    public static let keyedUnarchiveFromData = "NSKeyedUnarchiveFromData"

    private var transformers: [String: any AttributeValueTransformer] = [
        secureUnarchiveFromData: KeyedArchiveValueTransformer(),
        keyedUnarchiveFromData: KeyedArchiveValueTransformer(),
    ]

    /// Creates a registry holding Core Data's keyed-archive transformer under its two names.
    public init() {}

    /// Registers `transformer` under `name`, replacing any earlier one.
    public mutating func register(_ transformer: any AttributeValueTransformer, named name: String) {
        transformers[name] = transformer
    }

    /// Registers a ``StoredDataTransformer`` under every transformer name `model`'s transformable
    /// attributes use that has no transformer yet, so that a tool can open the model's stores and
    /// read and write the stored data without the application's types.
    public mutating func registerStoredDataTransformers(for model: ManagedObjectModel) {
        for entity in model.entities {
            for attribute in entity.attributes.flatMap(\.leafAttributes) where attribute.type == .transformable {
                guard let name = attribute.valueTransformerName, transformers[name] == nil else { continue }
                transformers[name] = StoredDataTransformer()
            }
        }
    }

    /// The transformer registered as `name`, if any.
    public func transformer(named name: String) -> (any AttributeValueTransformer)? {
        transformers[name]
    }

    /// The names of every registered transformer, sorted.
    public var names: [String] { transformers.keys.sorted() }

    /// The transformable attributes of `model` (of its configuration `configuration` only,
    /// when one is given) whose transformer is not registered, as `"Entity.attribute"` keys;
    /// empty when every one is. Transient attributes are left out: their values are never stored.
    public func missingTransformers(in model: ManagedObjectModel, configuration: String? = nil) -> [String] {
        unregisteredAttributes(in: model, configuration: configuration).map { "\($0.entity).\($0.attribute.name)" }
    }

    /// The stored transformable attributes of `model` (of `configuration` only, when given)
    /// whose transformer is not registered, with their entities' names.
    func unregisteredAttributes(in model: ManagedObjectModel, configuration: String?)
        -> [(entity: String, attribute: AttributeDescription)]
    {
        let entities = model.entities.filter { entity in
            configuration.map { model.configurations[$0]?.contains(entity.name) ?? false } ?? true
        }
        return entities.flatMap { entity in
            entity.attributes.flatMap(\.leafAttributes).filter { attribute in
                attribute.type == .transformable && !attribute.isTransient
                    && attribute.valueTransformerName.flatMap(transformer(named:)) == nil
            }.map { (entity.name, $0) }
        }
    }
}
