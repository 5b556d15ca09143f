import Foundation

/// A transformer that leaves the stored data as it is: a transformable attribute read through it
/// gives its `Data`, and only `Data` can be stored through it.
///
/// For tools that copy, inspect or migrate stores without the application's own types: register
/// it for every transformer a model names with
/// ``ValueTransformerRegistry/registerStoredDataTransformers(for:)``.
public struct StoredDataTransformer: AttributeValueTransformer {
    /// Creates the transformer.
    public init() {}

    public func data(from value: any Sendable) throws -> Data {
        guard let data = value as? Data else {
            throw ValueTransformerError(message: "StoredDataTransformer stores only Data, not a \(type(of: value)).")
        }
        return data
    }

    public func value(from data: Data) throws -> any Sendable { data }
}
