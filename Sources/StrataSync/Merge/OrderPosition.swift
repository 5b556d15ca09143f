/// A member's place in an ordered to-many relationship: a fraction between 0 and 1 written in
/// base 62 with the digits `0-9A-Za-z`, without its leading `0.` nor trailing zeros ("V" is
/// 31/62, "0V" is 31/3844). Positions compare as their UTF-8 bytes, which is the order of the
/// fractions, so that there is always room between two of them: a replica moving a member
/// between two others gives it a position between theirs and leaves every other member where
/// it was.
public struct OrderPosition: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The digits, most significant first; never empty, never ending in zero.
    public let text: String

    /// The longest position a peer may send.
    public static let maximumLength = 1024

    /// The length past which a replica spaces an ordered relationship's members anew rather
    /// than give one a longer position.
    public static let respacingLength = 128

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let base = alphabet.count

    /// The position `text` spells, or `nil` when it is empty, longer than ``maximumLength``,
    /// holds a character that is not a base-62 digit or ends in `0`.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength, bytes.last != Self.alphabet[0],
            bytes.allSatisfy({ Self.digit(of: $0) != nil })
        else { return nil }
        self.text = text
    }

    private init(digits: [Int]) {
        text = String(decoding: digits.map { Self.alphabet[$0] }, as: UTF8.self)
    }

    /// Encodes as the digits' string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// Decodes the digits' string, refusing one that is not a position.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let position = OrderPosition(text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "'\(text.prefix(64))' is not an order position."))
        }
        self = position
    }

    public var description: String { text }

    public static func < (lhs: OrderPosition, rhs: OrderPosition) -> Bool {
        lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
    }

    /// `count` positions in increasing order between `lower` and `upper` (`nil`: the start and
    /// the end), short: one position after `lower` takes its first digit that can go up, raised
    /// by one; others halve what lies between their neighbours, the middle one first.
    public static func positions(_ count: Int, between lower: OrderPosition?, and upper: OrderPosition?)
        -> [OrderPosition]
    {
        guard count > 0 else { return [] }
        if count == 1, upper == nil, let lower { return [lower.successor] }
        let middle = count / 2
        let position = OrderPosition(digits: midpoint(lower?.digits ?? [], upper?.digits ?? []))
        return positions(middle, between: lower, and: position) + [position]
            + positions(count - middle - 1, between: position, and: upper)
    }

    private var digits: [Int] { text.utf8.map { Self.digit(of: $0)! } }

    private static func digit(of byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 36
        default: nil
        }
    }

    /// A short position after this one: its first digit below the last one, raised by one, and
    /// what comes before it; this one with a `1` after it when every digit is the last.
    private var successor: OrderPosition {
        var digits = digits
        guard let index = digits.firstIndex(where: { $0 < Self.base - 1 }) else {
            return OrderPosition(digits: digits + [1])
        }
        digits[index] += 1
        return OrderPosition(digits: Array(digits[...index]))
    }

    /// Digits strictly between `lower` and `upper`, read as fractions (`lower` empty: zero;
    /// `upper` empty: one), ending in a digit other than zero. `lower` must come before
    /// `upper`; other digits give digits, never a trap.
    private static func midpoint(_ lower: [Int], _ upper: [Int]) -> [Int] {
        var prefix: [Int] = []
        var index = 0
        while true {
            let low = index < lower.count ? lower[index] : 0
            let high = index < upper.count ? upper[index] : base
            if low == high {
                prefix.append(low)
                index += 1
                continue
            }
            if high - low > 1 { return prefix + [(low + high) / 2] }
            // The digits are next to each other: `upper` shortened to this digit still lies
            // above `lower` when `upper` goes on; else go on below `upper`'s digit, after `lower`.
            if index + 1 < upper.count { return prefix + [high] }
            let rest = index + 1 < lower.count ? Array(lower[(index + 1)...]) : []
            return prefix + [low] + midpoint(rest, [])
        }
    }
}
