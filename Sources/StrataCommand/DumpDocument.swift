import Strata

/// The JSON document `strata dump` prints:
/// `{"store": {"type": …, "uuid": …}, "entities": {"Post": [{"id": …, "attributes": {…},
/// "relationships": {…}}, …]}}`. Attribute values use ``AttributeValue``'s lossless JSON form
/// (`{"string": "…"}`, `{"decimal": "10.11"}`, …). A to-one relationship is an object's `id` or
/// `null`; a to-many relationship is an array of ids.
struct DumpDocument: Encodable {
    /// The store's type and UUID; both are left out of a canonical dump.
    struct StoreHeader: Encodable {
        var type: String?
        var uuid: String?
    }

    /// One object.
    struct Object: Encodable {
        var id: String
        var attributes: [String: AttributeValue]
        var relationships: [String: Relationship]
    }

    /// A relationship's value.
    enum Relationship: Encodable {
        case toOne(String?)
        case toMany([String])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .toOne(let id): try container.encode(id)
            case .toMany(let ids): try container.encode(ids)
            }
        }
    }

    var store: StoreHeader
    var entities: [String: [Object]]
}
