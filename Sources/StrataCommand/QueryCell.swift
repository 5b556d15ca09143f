import Foundation
import Strata

/// One value of a `strata query` row: an attribute's or an aggregate's value, the object a
/// to-one relationship names, the members of a to-many one, or the objects `--follow` reads.
enum QueryCell {
    case value(AttributeValue)
    /// A to-one relationship's target by its URI; `nil` when it is empty.
    case object(String?)
    /// A to-many relationship's members by their URIs.
    case objects([String])
    /// Related objects read with `--follow`: one or none for a to-one relationship.
    case followed([FollowedObject], isToMany: Bool)

    /// A related object `--follow` printed: its URI and its attributes in the model's order.
    struct FollowedObject {
        let uri: String
        let values: [(key: String, value: AttributeValue)]
    }

    /// The cell as text: `NULL` (for tables) or nothing (for CSV) when empty, binary data as
    /// `<N bytes>` (tables) or Base64 (CSV); URIs separated by spaces.
    func text(forTable: Bool) -> String {
        switch self {
        case .value(let value): Self.text(of: value, forTable: forTable)
        case .object(let uri): uri ?? (forTable ? "NULL" : "")
        case .objects(let uris): uris.joined(separator: " ")
        case .followed(let objects, _):
            objects.map { object in
                "{"
                    + object.values.map { "\($0.key): \(Self.text(of: $0.value, forTable: forTable))" }
                    .joined(separator: ", ") + "}"
            }.joined(separator: " ")
        }
    }

    /// The cell as JSON: plain values (numbers, strings, `true`, `null`), dates in ISO 8601,
    /// binary data in Base64, objects by their URIs; followed objects as JSON objects with a
    /// `uri` key.
    var json: String {
        switch self {
        case .value(let value): Self.json(of: value)
        case .object(let uri): uri.map(JSONText.string) ?? "null"
        case .objects(let uris): "[" + uris.map(JSONText.string).joined(separator: ",") + "]"
        case .followed(let objects, let isToMany):
            isToMany
                ? "[" + objects.map(Self.json).joined(separator: ",") + "]"
                : objects.first.map(Self.json) ?? "null"
        }
    }

    private static func json(of object: FollowedObject) -> String {
        let members = [("uri", JSONText.string(object.uri))] + object.values.map { ($0.key, json(of: $0.value)) }
        return "{" + members.map { JSONText.string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func text(of value: AttributeValue, forTable: Bool) -> String {
        switch value {
        case .null: forTable ? "NULL" : ""
        case .integer16(let number): String(number)
        case .integer32(let number): String(number)
        case .integer64(let number): String(number)
        case .decimal(let number): "\(number)"
        case .double(let number): "\(number)"
        case .float(let number): "\(number)"
        case .string(let text):
            forTable
                ? text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t") : text
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let date): date.formatted(Self.dateStyle)
        case .binary(let data): forTable ? "<\(data.count) bytes>" : data.base64EncodedString()
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        case .objectID(let id): id.uriString
        }
    }

    static func json(of value: AttributeValue) -> String {
        switch value {
        case .null: "null"
        case .integer16, .integer32, .integer64, .boolean: text(of: value, forTable: false)
        case .decimal(let number) where !number.isNaN: text(of: value, forTable: false)
        case .double(let number) where number.isFinite: "\(number)"
        case .float(let number) where number.isFinite: "\(number)"
        default: JSONText.string(text(of: value, forTable: false))
        }
    }

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

/// JSON text made by hand, so that rows are written as they come.
enum JSONText {
    /// `text` as a JSON string, quoted and escaped as a predicate's string literal is.
    static func string(_ text: String) -> String { PredicateLiteral.quoted(text) }
}
