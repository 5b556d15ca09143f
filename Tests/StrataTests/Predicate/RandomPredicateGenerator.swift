import Foundation

@testable import Strata

/// A small, fast, seedable random number generator (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Builds random predicate trees of the shapes the parser produces, with constants of every
/// kind and keys that need escaping.
struct RandomPredicateGenerator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private static let keys = [
        "name", "author", "in", "self", "Order", "café", "_x", "and", "nil", "cast", "a1", "ANY",
    ]
    private static let operators = ["@count", "@sum", "@avg", "@min", "@max"]
    private static let variables = ["x", "NAME", "FETCH_SOURCE", "in", "v1"]
    private static let functions = ["now", "lowercase", "uppercase", "in", "SELF", "count", "Cast"]
    private static let stringPieces = [
        "a", "Z", " ", "'", "\"", "\\", "\n", "\t", "\r", "\0", "\u{1}", "\u{7F}", "\u{85}", "%@", "%K", "$x", "é",
        "e\u{301}", "\u{301}", "😀", "名", "\u{2028}", "#", "(", "{", "*?", "AND",
    ]
    private static let urls = [
        "https://example.com/a%20b?q=1&r=2#frag", "file:///tmp/x", "mailto:a@b.c", "urn:isbn:123", "relative/path",
        "x-strata://A/B/p1",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

    mutating func predicate(depth: Int) -> FetchPredicate {
        guard depth > 0 else { return chance(90) ? comparison(depth: 0) : .constant(chance(50)) }
        switch int(0...9) {
        case 0: return .constant(chance(50))
        case 1...4: return comparison(depth: depth - 1)
        case 5, 6: return .and((0..<int(2...4)).map { _ in predicate(depth: depth - 1) })
        case 7, 8: return .or((0..<int(2...4)).map { _ in predicate(depth: depth - 1) })
        default: return .not(predicate(depth: depth - 1))
        }
    }

    mutating func comparison(depth: Int) -> FetchPredicate {
        let op = pick(ComparisonPredicate.Operator.allCases)
        var options: StringComparisonOptions = []
        if chance(30) { options.insert(.caseInsensitive) }
        if chance(30) { options.insert(.diacriticInsensitive) }
        let modifier = pick([ComparisonPredicate.Modifier.direct, .direct, .any, .all])
        let left = expression(depth: depth)
        let right =
            op == .between
            ? .aggregate([expression(depth: depth), expression(depth: depth)]) : expression(depth: depth)
        return .comparison(ComparisonPredicate(left, op, right, modifier: modifier, options: options))
    }

    mutating func keyPath(startingWithOperator: Bool) -> String {
        var components = [startingWithOperator && chance(30) ? pick(Self.operators) : pick(Self.keys)]
        for _ in 0..<int(0...2) { components.append(chance(30) ? pick(Self.operators) : pick(Self.keys)) }
        return components.joined(separator: ".")
    }

    mutating func expression(depth: Int) -> FetchExpression {
        guard depth > 0 else {
            switch int(0...3) {
            case 0: return .evaluatedObject
            case 1: return .keyPath(keyPath(startingWithOperator: false))
            case 2: return .constant(constant())
            default: return .variable(pick(Self.variables))
            }
        }
        switch int(0...9) {
        case 0: return .evaluatedObject
        case 1: return .keyPath(keyPath(startingWithOperator: false))
        case 2, 3: return .constant(constant())
        case 4: return .variable(pick(Self.variables))
        case 5: return .aggregate((0..<int(0...3)).map { _ in expression(depth: depth - 1) })
        case 6: return .function(pick(Self.functions), (0..<int(0...3)).map { _ in expression(depth: depth - 1) })
        case 7:
            return .subquery(
                collection: expression(depth: depth - 1), variable: pick(Self.variables),
                predicate: predicate(depth: depth - 1))
        default:
            let base: FetchExpression
            switch int(0...5) {
            case 0: base = .evaluatedObject
            case 1: base = .variable(pick(Self.variables))
            case 2: base = .function(pick(Self.functions), [])
            case 3: base = .constant(constant())
            case 4: base = .aggregate([expression(depth: depth - 1)])
            default:
                base = .subquery(
                    collection: .keyPath(pick(Self.keys)), variable: "x", predicate: predicate(depth: depth - 1))
            }
            return .keyPathOn(base, keyPath(startingWithOperator: true))
        }
    }

    mutating func string() -> String {
        (0..<int(0...8)).map { _ in pick(Self.stringPieces) }.joined()
    }

    mutating func double() -> Double {
        switch int(0...9) {
        case 0: pick([Double.nan, .infinity, -.infinity, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude])
        case 1...3: Double(bitPattern: random.next())
        case 4...6: Double(int(-1_000_000...1_000_000)) / 8
        default: Double.random(in: -1e6...1e6, using: &random)
        }
    }

    mutating func constant() -> AttributeValue {
        switch int(0...13) {
        case 0: return .null
        case 1: return .integer16(Int16.random(in: .min ... .max, using: &random))
        case 2: return .integer32(Int32.random(in: .min ... .max, using: &random))
        case 3: return .integer64(chance(20) ? pick([.min, .max, 0]) : Int64.random(in: .min ... .max, using: &random))
        case 4:
            let text = "\(chance(50) ? "-" : "")\(int(0...99_999)).\(int(0...99_999))"
            return .decimal(Decimal(string: text) ?? 0)
        case 5: return .double(double())
        case 6:
            return .float(
                chance(50) ? Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &random)) : Float(double()))
        case 7: return .string(string())
        case 8: return .boolean(chance(50))
        case 9:
            let interval =
                chance(10) ? pick([Double.infinity, -.infinity]) : Double.random(in: -1e10...1e10, using: &random)
            return .date(Date(timeIntervalSinceReferenceDate: interval))
        case 10: return .binary(Data((0..<int(0...8)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        case 11: return .uuid(uuid())
        case 12: return .uri(URL(string: pick(Self.urls)) ?? URL(fileURLWithPath: "/"))
        default: return .objectID(objectID())
        }
    }

    mutating func uuid() -> UUID {
        let a = random.next()
        let b = random.next()
        return UUID(
            uuid: (
                UInt8(a & 0xFF), UInt8(a >> 8 & 0xFF), UInt8(a >> 16 & 0xFF), UInt8(a >> 24 & 0xFF),
                UInt8(a >> 32 & 0xFF), UInt8(a >> 40 & 0xFF), UInt8(a >> 48 & 0xFF), UInt8(a >> 56),
                UInt8(b & 0xFF), UInt8(b >> 8 & 0xFF), UInt8(b >> 16 & 0xFF), UInt8(b >> 24 & 0xFF),
                UInt8(b >> 32 & 0xFF), UInt8(b >> 40 & 0xFF), UInt8(b >> 48 & 0xFF), UInt8(b >> 56)
            ))
    }

    mutating func objectID() -> ObjectID {
        let store = pick([nil, uuid().uuidString, "store id/with %slash"])
        let entity = pick(["Post", "Ünïcode Entity/x", "A"])
        let reference: ObjectID.Reference =
            switch int(0...2) {
            case 0: .temporary(uuid())
            case 1: .integer(Int64.random(in: .min ... .max, using: &random))
            default: .string(string())
            }
        return ObjectID(storeIdentifier: store, entityName: entity, reference: reference)
    }
}
