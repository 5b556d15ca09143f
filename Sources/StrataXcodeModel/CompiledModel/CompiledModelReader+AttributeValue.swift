import Foundation
import Strata

extension CompiledModelReader {
    /// The default value of the attribute `object` (field `NSDefaultValue`), converted to
    /// `type`; ``AttributeValue/null`` when there is none.
    ///
    /// Numbers and flags are archived inline, strings, data and dates inline or as objects;
    /// see ``attributeValue(_:)`` for the objects read. A default Strata has no value for (an
    /// archived object of another class, such as the default of a transformable attribute) or
    /// that does not fit `type` is skipped and logged.
    mutating func defaultValue(of object: KeyedArchive.Object, type: AttributeType, in what: String)
        throws(ModelError) -> AttributeValue
    {
        guard let field = object.fields["NSDefaultValue"] else { return .null }
        guard let value = try attributeValue(field) else {
            skipped.skip(
                "the default value of \(what)", because: "Strata has no value like \(describe(field)).",
                at: place(of: object))
            return .null
        }
        guard let converted = type.coerce(value) else {
            skipped.skip(
                "the default value of \(what)",
                because: "it does not fit an attribute of type \(type.modelFileName).", at: place(of: object))
            return .null
        }
        return converted
    }

    /// The value the archived `field` stands for: ``AttributeValue/null`` for `$null` and
    /// `NSNull`; booleans, integers, reals, strings, data and dates as they are archived (an
    /// integer as ``AttributeValue/integer64(_:)``, a real as ``AttributeValue/double(_:)``);
    /// an `NSDecimalNumber` as a decimal, an `NSUUID` as a UUID and an `NSURL` as a URI. Nil for
    /// any other archived object.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when one of these objects lacks its fields.
    func attributeValue(_ field: PropertyListValue) throws(ModelError) -> AttributeValue? {
        if let archived = try archive.object(field) {
            if archived.isKind(of: "NSDecimalNumber") { return try decimalValue(archived) }
            if archived.isKind(of: "NSUUID") { return try uuidValue(archived) }
            if archived.isKind(of: "NSURL") {
                guard case .string(let text)? = try archive.plainValue(field), let url = URL(string: text) else {
                    return nil
                }
                return .uri(url)
            }
            if archived.isKind(of: "NSNull") { return .null }
            let isPlain =
                archived.isKind(of: "NSString") || archived.isKind(of: "NSData") || archived.isKind(of: "NSDate")
            if !isPlain { return nil }
        }
        guard let plain = try archive.plainValue(field) else { return .null }
        switch plain {
        case .boolean(let flag): return .boolean(flag)
        case .integer(let integer): return .integer64(integer)
        case .real(let real): return .double(real)
        case .string(let string): return .string(string)
        case .date(let date): return .date(date)
        case .data(let data): return .binary(data)
        case .null, .uid, .array, .set, .dictionary: return nil
        }
    }

    /// How log messages name the archived `field`: `an archived Cover object`, or its kind.
    func describe(_ field: PropertyListValue) -> String {
        if let archived = try? archive.object(field) { return "an archived \(archived.className) object" }
        return field.kindDescription
    }

    /// The UUID of an archived `NSUUID`: its 16 bytes in `NS.uuidbytes`.
    private func uuidValue(_ object: KeyedArchive.Object) throws(ModelError) -> AttributeValue {
        guard let data = try object.data("NS.uuidbytes"), data.count == 16 else {
            throw malformed(object, "the NSUUID lacks its 16 bytes ('NS.uuidbytes')")
        }
        let b = Array(data)
        return .uuid(
            UUID(
                uuid: (
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                    b[15]
                )))
    }

    /// The value of an archived `NSDecimalNumber`, or nil for NaN.
    ///
    /// `NSDecimalNumber` archives the fields of its `NSDecimal`: `NS.exponent`, `NS.length`
    /// (the number of significant 16-bit words of the mantissa), `NS.negative`, `NS.compact`,
    /// and `NS.mantissa`, 16 bytes holding eight 16-bit words, least significant first, each
    /// little-endian when `NS.mantissa.bo` is 1 (as Foundation writes it).
    ///
    /// - Throws: `ModelError/Code/malformedFile` when the mantissa is missing or not 16 bytes, or
    ///   the length is over 8.
    private func decimalValue(_ object: KeyedArchive.Object) throws(ModelError) -> AttributeValue? {
        let exponent = try object.integer("NS.exponent") ?? 0
        let length = try object.integer("NS.length") ?? 0
        let isNegative = try object.boolean("NS.negative") ?? false
        let byteOrder = try object.integer("NS.mantissa.bo") ?? 1
        guard let mantissa = try object.data("NS.mantissa"), mantissa.count == 16, (0...8).contains(length) else {
            throw malformed(object, "the NSDecimalNumber lacks its 16-byte mantissa or has a length over 8 words")
        }
        if length == 0 && isNegative { return nil }
        let bytes = Array(mantissa)
        var words: [UInt16] = []
        for word in 0..<Int(length) {
            let first = UInt16(bytes[2 * word])
            let second = UInt16(bytes[2 * word + 1])
            words.append(byteOrder == 1 ? second << 8 | first : first << 8 | second)
        }
        let text = (isNegative ? "-" : "") + Self.decimalDigits(ofWords: words) + "e\(exponent)"
        guard let decimal = AttributeValue.parseDecimal(text) else {
            throw malformed(object, "the NSDecimalNumber \(text) is out of range")
        }
        return .decimal(decimal)
    }

    /// The decimal digits of the unsigned integer whose 16-bit `words` are given least
    /// significant first.
    static func decimalDigits(ofWords words: [UInt16]) -> String {
        var remaining = words
        var digits: [Character] = []
        while remaining.contains(where: { $0 != 0 }) {
            var remainder: UInt32 = 0
            for position in remaining.indices.reversed() {
                let current = remainder << 16 | UInt32(remaining[position])
                remaining[position] = UInt16(current / 10)
                remainder = current % 10
            }
            digits.append(Character(String(remainder)))
        }
        return digits.isEmpty ? "0" : String(digits.reversed())
    }

    /// Reads the validation predicates of the attribute `object` (field
    /// `NSValidationPredicates`, with their messages in `NSValidationWarnings`) into the bounds
    /// and regular expression of `attribute`.
    ///
    /// Core Data keeps bounds as predicates in older archives: `SELF >= value` and
    /// `SELF <= value` for numbers (and dates), `length >= n` and `length <= n` for strings and
    /// data, `timeIntervalSinceReferenceDate >= seconds` for dates, and `SELF MATCHES pattern`
    /// for a regular expression. Predicates joined with `AND` are read one by one. Any other
    /// predicate is skipped and logged: Strata validates only bounds and patterns.
    mutating func readValidationPredicates(
        of object: KeyedArchive.Object, into attribute: inout AttributeDescription, in what: String
    ) throws(ModelError) {
        guard let predicates = try object.objects("NSValidationPredicates") else { return }
        for archived in predicates {
            let predicate: FetchPredicate
            do throws(ModelError) {
                predicate = try decodePredicate(archived, depth: 0)
            } catch {
                guard error.code == .unsupportedFormat else { throw error }
                skipped.skip(
                    "a validation predicate of \(what)", because: "Strata cannot express it. \(error.message)",
                    at: place(of: archived))
                continue
            }
            for condition in predicate.conjuncts {
                if Self.applyValidation(condition, to: &attribute) { continue }
                skipped.skip(
                    "the validation predicate '\(condition)' of \(what)",
                    because: "Strata validates only value and length bounds and regular expressions.",
                    at: place(of: archived))
            }
        }
    }

    /// Sets the bound or regular expression that `predicate` expresses on `attribute`; false,
    /// leaving `attribute` alone, when `predicate` is not one of the forms
    /// ``readValidationPredicates(of:into:in:)`` lists.
    static func applyValidation(_ predicate: FetchPredicate, to attribute: inout AttributeDescription) -> Bool {
        guard case .comparison(let comparison) = predicate, comparison.modifier == .direct,
            comparison.options.isEmpty, case .constant(let constant) = comparison.right
        else { return false }
        let type = attribute.type
        if comparison.operator == .matches {
            guard case .evaluatedObject = comparison.left, case .string(let pattern) = constant, type == .string else {
                return false
            }
            attribute.regularExpression = pattern
            return true
        }
        let isMinimum: Bool
        switch comparison.operator {
        case .greaterThanOrEqualTo: isMinimum = true
        case .lessThanOrEqualTo: isMinimum = false
        default: return false
        }
        let bound: Bound
        switch comparison.left {
        case .evaluatedObject where type.isNumeric || type == .date:
            guard let value = type.coerce(constant) else { return false }
            bound = .value(value)
        case .keyPath("length") where type == .string || type == .binary:
            guard let length = integer(of: constant) else { return false }
            bound = .length(length)
        case .keyPath("timeIntervalSinceReferenceDate") where type == .date:
            guard let seconds = number(of: constant) else { return false }
            bound = .value(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        default:
            return false
        }
        apply(bound, isMinimum: isMinimum, to: &attribute)
        return true
    }

    /// `value` as an `Int`, when it is an integer (or a real number without a fraction).
    private static func integer(of value: AttributeValue) -> Int? {
        switch value {
        case .integer16(let integer): Int(integer)
        case .integer32(let integer): Int(integer)
        case .integer64(let integer): Int(exactly: integer)
        case .double(let real): Int(exactly: real)
        default: nil
        }
    }

    /// `value` as a `Double`, when it is a number other than a decimal.
    private static func number(of value: AttributeValue) -> Double? {
        switch value {
        case .integer16(let integer): Double(integer)
        case .integer32(let integer): Double(integer)
        case .integer64(let integer): Double(integer)
        case .double(let real): real
        case .float(let real): Double(real)
        default: nil
        }
    }
}
