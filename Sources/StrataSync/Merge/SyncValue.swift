import Foundation
import Strata

/// The value of an attribute or to-one relationship as it travels between replicas: an
/// attribute's value, or the global ID of the object a to-one relationship refers to (store
/// object IDs mean nothing on another replica).
public enum SyncValue: Sendable, Hashable, Codable {
    /// An attribute's value; never `AttributeValue.objectID(_:)`.
    case attribute(AttributeValue)
    /// A to-one relationship's destination, `nil` when it is empty.
    case reference(GlobalID?)
}

extension SyncValue {
    private enum CodingKeys: String, CodingKey {
        case attribute, reference
    }

    /// Encodes as `{"attribute": <the value's JSON form>}` or `{"reference": "<UUID>"}`
    /// (`{"reference": null}` when empty).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .attribute(let value): try container.encode(value, forKey: .attribute)
        case .reference(let target): try container.encode(target, forKey: .reference)
        }
    }

    /// Decodes the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "A value has one key: attribute or reference."))
        }
        if container.contains(.attribute) {
            let value = try container.decode(AttributeValue.self, forKey: .attribute)
            if case .objectID = value {
                throw DecodingError.dataCorruptedError(
                    forKey: .attribute, in: container, debugDescription: "A value is never a store's object ID.")
            }
            self = .attribute(value)
        } else {
            self = .reference(try container.decodeIfPresent(GlobalID.self, forKey: .reference))
        }
    }

    /// Whether this value comes before `other` in an order every machine agrees on: the order
    /// of their JSON encodings with sorted keys. Only two writes stamped alike — which a replica
    /// never makes, but a damaged or hostile peer might send — are ordered by it.
    func canonicallyPrecedes(_ other: SyncValue) -> Bool {
        Self.canonicalBytes(self).lexicographicallyPrecedes(Self.canonicalBytes(other))
    }

    private static func canonicalBytes(_ value: SyncValue) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map(Array.init) ?? []
    }
}
