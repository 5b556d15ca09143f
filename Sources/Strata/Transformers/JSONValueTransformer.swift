import Foundation

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
