/// Hexadecimal digits, for data literals and percent-encoding.
enum Hex {
    /// The two lowercase hex digits of `byte`.
    static func digits(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return byte < 16 ? "0" + digits : digits
    }

    /// The value of one ASCII hex digit (either case); `nil` for any other byte.
    static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
