import Foundation
import Strata

/// One value of an XML property list, as the `<metadata>` element of an XML store holds one.
/// Read and written element by element through the store's streaming reader and writer.
indirect enum PropertyListValue: Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case data(Data)
    case date(Date)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// Writes the value as its element, nested lines indented one step deeper than `depth`;
    /// dictionary keys in sorted order so that the same value always gives the same text.
    func write(to writer: XMLTextWriter, depth: Int) throws {
        switch self {
        case .string(let text): try writer.element("string", text: text)
        case .integer(let number): try writer.element("integer", text: "\(number)")
        case .real(let number): try writer.element("real", text: "\(number)")
        case .boolean(let flag):
            try writer.start(flag ? "true" : "false")
            try writer.end()
        case .data(let bytes): try writer.element("data", text: bytes.base64EncodedString())
        case .date(let date): try writer.element("date", text: Self.dateFormat.format(date))
        case .array(let items):
            try writer.start("array")
            for item in items {
                try writer.newline(depth: depth + 1)
                try item.write(to: writer, depth: depth + 1)
            }
            if !items.isEmpty { try writer.newline(depth: depth) }
            try writer.end()
        case .dictionary(let entries):
            try writer.start("dict")
            for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
                try writer.newline(depth: depth + 1)
                try writer.element("key", text: key)
                try writer.newline(depth: depth + 1)
                try value.write(to: writer, depth: depth + 1)
            }
            if !entries.isEmpty { try writer.newline(depth: depth) }
            try writer.end()
        }
    }

    /// Reads the value whose start tag `element` the reader has just passed, up to and
    /// including its end tag.
    static func read(_ element: String, isEmpty: Bool, from reader: XMLTextReader) throws -> PropertyListValue {
        switch element {
        case "true", "false":
            if !isEmpty { _ = try text(of: element, isEmpty: false, from: reader) }
            return .boolean(element == "true")
        case "array":
            var items: [PropertyListValue] = []
            while !isEmpty, let (name, empty) = try nextChild(of: element, from: reader) {
                items.append(try read(name, isEmpty: empty, from: reader))
            }
            return .array(items)
        case "dict":
            var entries: [String: PropertyListValue] = [:]
            while !isEmpty, let (name, empty) = try nextChild(of: element, from: reader) {
                guard name == "key" else { throw reader.corrupt("the metadata has <\(name)> where a <key> belongs.") }
                let key = try text(of: name, isEmpty: empty, from: reader)
                guard let (valueName, valueEmpty) = try nextChild(of: element, from: reader) else {
                    throw reader.corrupt("the metadata key '\(key)' has no value.")
                }
                entries[key] = try read(valueName, isEmpty: valueEmpty, from: reader)
            }
            return .dictionary(entries)
        default:
            let content = try text(of: element, isEmpty: isEmpty, from: reader)
            guard let value = scalar(element, content) else {
                throw reader.corrupt(
                    "the metadata has <\(element)> holding '\(content.prefix(40))', which it cannot read.")
            }
            return value
        }
    }

    /// A value of a scalar element from its text; `nil` when the element or text is not one.
    /// Base64 text may be broken by XML whitespace anywhere, as property list writers wrap it.
    private static func scalar(_ element: String, _ content: String) -> PropertyListValue? {
        func trimmed() -> String { content.trimmingCharacters(in: .whitespacesAndNewlines) }
        switch element {
        case "string": return .string(content)
        case "integer": return Int64(trimmed()).map(PropertyListValue.integer)
        case "real": return Double(trimmed()).map(PropertyListValue.real)
        case "data":
            let base64 = Data(content.utf8.filter { !XMLStoreFormat.isWhitespace(byte: $0) })
            return Data(base64Encoded: base64).map(PropertyListValue.data)
        case "date": return (try? dateFormat.parse(trimmed())).map(PropertyListValue.date)
        default: return nil
        }
    }

    /// The next child element of `parent`: its name and whether it is empty; `nil` at the
    /// parent's end tag.
    private static func nextChild(of parent: String, from reader: XMLTextReader) throws -> (String, Bool)? {
        while true {
            switch try reader.next() {
            case .start(let name, let isEmpty): return (name, isEmpty)
            case .end: return nil
            case .text(let content) where XMLStoreFormat.isWhitespace(content): continue
            case .text, .endOfDocument: throw reader.corrupt("the metadata's <\(parent)> holds text or is cut short.")
            }
        }
    }

    /// The text inside `element`, up to its end tag.
    static func text(of element: String, isEmpty: Bool, from reader: XMLTextReader) throws -> String {
        var content = ""
        while !isEmpty {
            switch try reader.next() {
            case .text(let piece): content += piece
            case .end: return content
            case .start(let name, _):
                throw reader.corrupt("<\(element)> holds the element <\(name)>; it holds only text.")
            case .endOfDocument: throw reader.corrupt("the file ends inside <\(element)>.")
            }
        }
        return content
    }

    /// Property-list dates: ISO 8601 in UTC, to the second.
    private static let dateFormat = Date.ISO8601FormatStyle()
}
