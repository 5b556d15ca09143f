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
/// transformers.register(ColorTransformer(), named: "ColorTransformer")
/// ```
/// ``JSONValueTransformer`` stores any `Codable` value; register it under the name your
/// model uses.
public struct ValueTransformerRegistry: Sendable {
    private var transformers: [String: any AttributeValueTransformer] = [:]

    /// Creates an empty registry.
    public init() {}

    /// Registers `transformer` under `name`, replacing any earlier one.
    public mutating func register(_ transformer: any AttributeValueTransformer, named name: String) {
        transformers[name] = transformer
    }

    /// The transformer registered as `name`, if any.
    public func transformer(named name: String) -> (any AttributeValueTransformer)? {
        transformers[name]
    }

    /// The names of every registered transformer, sorted.
    public var names: [String] { transformers.keys.sorted() }

    /// The transformable attributes of `model` whose transformer is not registered, as
    /// `"Entity.attribute"` keys; empty when every one is.
    public func missingTransformers(in model: ManagedObjectModel) -> [String] {
        model.entities.flatMap { entity in
            entity.attributes.filter { attribute in
                attribute.type == .transformable && attribute.valueTransformerName.flatMap(transformer(named:)) == nil
            }.map { "\(entity.name).\($0.name)" }
        }
    }
}

/// A transformer that stores any `Codable` value of type `Value` as JSON.
public struct JSONValueTransformer<Value: Codable & Sendable>: AttributeValueTransformer {
    /// Creates the transformer.
    public init() {}

    public func data(from value: any Sendable) throws -> Data {
        guard let typed = value as? Value else {
            throw ValueTransformerError(
                message: "JSONValueTransformer<\(Value.self)> cannot store a value of type \(type(of: value)).")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(typed)
    }

    public func value(from data: Data) throws -> any Sendable {
        try JSONDecoder().decode(Value.self, from: data)
    }
}

/// A value that a transformer could not convert.
public struct ValueTransformerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// Creates an error.
    public init(message: String) { self.message = message }
    public var description: String { message }
}
