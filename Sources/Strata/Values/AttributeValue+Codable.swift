import Foundation

/// The JSON form of a value is an object with one key naming its kind:
/// `{"integer16": 3}`, `{"decimal": "10.11"}` (a string, to keep every digit),
/// `{"double": 0.5}` (non-finite values as the strings `"nan"`, `"inf"`, `"-inf"`),
/// `{"string": "…"}`, `{"boolean": true}`, `{"date": 526927588.94}` (seconds since
/// 2001-01-01 UTC), `{"binary": "<base64>"}`, `{"uuid": "…"}`, `{"uri": "…"}`,
/// `{"objectID": "x-strata://…"}` and `{"null": true}`.
extension AttributeValue: Codable {
    private enum Key: String, CodingKey {
        case null, integer16, integer32, integer64, decimal, double, float, string, boolean, date, binary, uuid, uri,
            objectID
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .null: try container.encode(true, forKey: .null)
        case .integer16(let v): try container.encode(v, forKey: .integer16)
        case .integer32(let v): try container.encode(v, forKey: .integer32)
        case .integer64(let v): try container.encode(v, forKey: .integer64)
        case .decimal(let v): try container.encode(v.description, forKey: .decimal)
        case .double(let v): try Self.encodeFloating(v, in: &container, forKey: .double)
        case .float(let v): try Self.encodeFloating(v, in: &container, forKey: .float)
        case .string(let v): try container.encode(v, forKey: .string)
        case .boolean(let v): try container.encode(v, forKey: .boolean)
        case .date(let v): try container.encode(v.timeIntervalSinceReferenceDate, forKey: .date)
        case .binary(let v): try container.encode(v.base64EncodedString(), forKey: .binary)
        case .uuid(let v): try container.encode(v.uuidString, forKey: .uuid)
        case .uri(let v): try container.encode(v.absoluteString, forKey: .uri)
        case .objectID(let v): try container.encode(v.uriString, forKey: .objectID)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath, debugDescription: "A value needs exactly one kind key."))
        }
        func invalid(_ what: String) -> DecodingError {
            .dataCorruptedError(
                forKey: key, in: container, debugDescription: "'\(what)' is not a valid \(key.rawValue).")
        }
        switch key {
        case .null: self = .null
        case .integer16: self = .integer16(try container.decode(Int16.self, forKey: key))
        case .integer32: self = .integer32(try container.decode(Int32.self, forKey: key))
        case .integer64: self = .integer64(try container.decode(Int64.self, forKey: key))
        case .decimal:
            let text = try container.decode(String.self, forKey: key)
            guard let v = AttributeValue.parseDecimal(text) else { throw invalid(text) }
            self = .decimal(v)
        case .double: self = .double(try Self.decodeFloating(Double.self, container, key))
        case .float: self = .float(try Self.decodeFloating(Float.self, container, key))
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .boolean: self = .boolean(try container.decode(Bool.self, forKey: key))
        case .date: self = .date(Date(timeIntervalSinceReferenceDate: try container.decode(Double.self, forKey: key)))
        case .binary:
            let text = try container.decode(String.self, forKey: key)
            guard let v = Data(base64Encoded: text) else { throw invalid(text) }
            self = .binary(v)
        case .uuid:
            let text = try container.decode(String.self, forKey: key)
            guard let v = UUID(uuidString: text) else { throw invalid(text) }
            self = .uuid(v)
        case .uri:
            let text = try container.decode(String.self, forKey: key)
            guard let v = URL(string: text) else { throw invalid(text) }
            self = .uri(v)
        case .objectID:
            let text = try container.decode(String.self, forKey: key)
            guard let v = ObjectID(uriString: text) else { throw invalid(text) }
            self = .objectID(v)
        }
    }

    private static func encodeFloating<F: BinaryFloatingPoint & Encodable>(
        _ value: F, in container: inout KeyedEncodingContainer<Key>, forKey key: Key
    ) throws {
        if value.isNaN {
            try container.encode("nan", forKey: key)
        } else if value.isInfinite {
            try container.encode(value < 0 ? "-inf" : "inf", forKey: key)
        } else {
            try container.encode(value, forKey: key)
        }
    }

    private static func decodeFloating<F: BinaryFloatingPoint & Decodable>(
        _ type: F.Type, _ container: KeyedDecodingContainer<Key>, _ key: Key
    ) throws -> F {
        do {
            return try container.decode(F.self, forKey: key)
        } catch DecodingError.typeMismatch {
            let text = try container.decode(String.self, forKey: key)
            switch text {
            case "nan": return .nan
            case "inf": return .infinity
            case "-inf": return -.infinity
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "'\(text)' is not a number.")
            }
        }
    }
}
