/// Strict percent-encoding (RFC 3986): every byte but ASCII letters, digits and `-._~` is
/// written as `%XX`, so that any text survives as one URI component.
enum PercentEncoding {
    /// `text` with every byte but the unreserved characters written as `%XX`.
    static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + Hex.digits(byte).uppercased()
            }
        }
        return result
    }

    /// `text` with `%XX` sequences decoded; `nil` when one is malformed or the bytes are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(Hex.value), let low = utf8.next().flatMap(Hex.value) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
