/// Identifiers in PostgreSQL's SQL: every table, column and schema name Strata writes is
/// quoted, so that it keeps its case and may be a reserved word, and clipped to the server's
/// 63 bytes with a hash of the whole name, so that two long names never become one.
enum PostgresIdentifier {
    /// The longest identifier PostgreSQL keeps (`NAMEDATALEN` − 1).
    static let maximumLength = 63

    /// `name` as a quoted identifier.
    static func quoted(_ name: String) -> String {
        "\"" + clipped(name).replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `name`, or when it is longer than PostgreSQL keeps, its start and a hash of all of it.
    static func clipped(_ name: String) -> String {
        guard name.utf8.count > maximumLength else { return name }
        let hash = name.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let suffix = "~" + String(hash, radix: 16)
        var start = ""
        for character in name where start.utf8.count + character.utf8.count + suffix.utf8.count <= maximumLength {
            start.append(character)
        }
        return start + suffix
    }

    /// `table` in `schema`, both quoted.
    static func qualified(_ schema: String, _ table: String) -> String { quoted(schema) + "." + quoted(table) }
}
