extension SQLiteValue {
    /// The value as an SQL literal; `nil` for a real number SQL cannot spell (infinite or NaN).
    var sqlLiteral: String? {
        switch self {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): number.isFinite ? "\(number)" : nil
        case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes): "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
