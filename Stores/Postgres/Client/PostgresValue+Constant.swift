extension PostgresValue {
    /// The value written as a constant of SQL text, for the condition of a partial index,
    /// which PostgreSQL stores without parameters; `nil` for a value with no form whose every
    /// character Strata chooses (text, arrays), which then never reaches SQL text.
    var constantSQL: String? {
        switch self {
        case .null: "NULL"
        case .smallint(let number): "'\(number)'::int2"
        case .integer(let number): "'\(number)'::int4"
        case .bigint(let number): "'\(number)'::int8"
        case .real(let number): "'\(Self.floatingText(Double(number)))'::float4"
        case .double(let number): "'\(Self.floatingText(number))'::float8"
        case .boolean(let flag): flag ? "true" : "false"
        case .bytes(let bytes): "E'\\\\x" + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() + "'::bytea"
        case .numeric(let text):
            text.isEmpty || !text.allSatisfy({ "0123456789.-+eE".contains($0) }) ? nil : "'\(text)'::numeric"
        case .uuid(let uuid): "'\(uuid.uuidString.lowercased())'::uuid"
        case .text, .array: nil
        }
    }

    /// `number` as PostgreSQL reads a floating-point constant: Swift's shortest exact digits,
    /// and PostgreSQL's names for infinities and NaN.
    private static func floatingText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return "\(number)"
    }
}

extension String {
    /// The string with zeros in front up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
