/// The fixed parts of Core Data's XML store format (COREDATA-FORMATS §D).
enum XMLStoreFormat {
    /// The format version in `<databaseInfo><version>`: 134481920 (0x08040800), the same in
    /// every Core Data XML store from 2006 to 2021. A larger number is a newer format.
    static let version: Int64 = 134_481_920
    /// The system identifier of the document type Core Data declares.
    static let systemID = "file:///System/Library/DTDs/CoreData.dtd"
    /// The `type` of a to-one `<relationship>`.
    static let toOne = "1/1"
    /// The `type` of a to-many `<relationship>`.
    static let toMany = "0/0"

    /// The `id` of the object with the integer reference `reference`: `z` and the number.
    static func objectID(_ reference: Int64) -> String { "z\(reference)" }

    /// The integer reference of the object `id`; `nil` when `id` is not `z` and a number
    /// below `Int64.max` (the next reference must still be a number).
    static func reference(_ id: Substring) -> Int64? {
        guard id.first == "z", let number = Int64(id.dropFirst()), number >= 0, number < .max else { return nil }
        return number
    }

    /// Whether `text` is only XML whitespace (spaces, tabs, line breaks), as between elements.
    static func isWhitespace(_ text: String) -> Bool { text.utf8.allSatisfy(isWhitespace(byte:)) }

    /// Whether `byte` is XML whitespace: a space, a tab, a line feed or a carriage return.
    static func isWhitespace(byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    /// Whether an XML 1.0 document can hold `text`: every character is in its `Char`
    /// production (NUL and most other control characters are not, even as references).
    static func canHold(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
            default: false
            }
        }
    }
}
