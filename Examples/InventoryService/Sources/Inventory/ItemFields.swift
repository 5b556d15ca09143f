import Foundation
import Hummingbird
import Strata

/// The attribute values a request's JSON object gives, checked against the entity before
/// anything is written: every key must be an attribute, every value of the attribute's type.
struct ItemFields: Sendable {
    let values: [(key: String, value: AttributeValue)]

    /// Reads `body`, a JSON object, for `entity`.
    ///
    /// - Throws: `HTTPError` 400 naming the problem: a body that is not a JSON object, a key the
    ///   entity does not have (with the keys it has), a value of the wrong type.
    init(_ body: ByteBuffer, for entity: EntityDescription) throws {
        let object: [String: JSONValue]
        do {
            object = try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: body))
        } catch {
            throw HTTPError(
                .badRequest, message: "The body is not a JSON object of strings, numbers and nulls: \(error)")
        }
        values = try object.keys.sorted().map { key in
            guard let attribute = entity.attribute(named: key) else {
                let known = entity.attributes.map(\.name).joined(separator: ", ")
                throw HTTPError(
                    .badRequest, message: "\(entity.name) has no attribute '\(key)'; its attributes are \(known).")
            }
            return (key, try Self.value(object[key] ?? .null, for: attribute, of: entity))
        }
    }

    /// What `json` means for `attribute`.
    private static func value(
        _ json: JSONValue, for attribute: AttributeDescription, of entity: EntityDescription
    ) throws -> AttributeValue {
        switch (attribute.type, json) {
        case (_, .null): return .null
        case (.string, .string(let string)): return .string(string)
        case (.integer64, .integer(let integer)): return .integer64(integer)
        case (.double, .integer(let integer)): return .double(Double(integer))
        case (.double, .number(let number)): return .double(number)
        default:
            throw HTTPError(
                .badRequest,
                message: "'\(attribute.name)' of \(entity.name) takes \(attribute.type) values, not \(json).")
        }
    }

    /// Sets the values on `object`.
    func apply(to object: ManagedObject) throws {
        for (key, value) in values { try object.setValue(value, forKey: key) }
    }
}
