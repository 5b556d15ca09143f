import Foundation

extension AttributeValue {
    /// Reads a decimal number written as text: an optional sign, digits, an optional fraction
    /// and an optional exponent (`-12.50`, `1e-3`), with nothing else around it. Returns `nil`
    /// for anything else (`"1.5abc"`, `"0x10"`, `"NaN"`, an empty string), where Foundation's
    /// `Decimal(string:)` would read a prefix.
    public static func parseDecimal(_ text: String) -> Decimal? {
        guard text.wholeMatch(of: /[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?/) != nil,
            let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN
        else { return nil }
        return decimal
    }
}
