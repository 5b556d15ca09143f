import Foundation
import Strata

/// The objects that predicate, sorting and workload checks fill identically into the store
/// under test and the oracle. Every object has a unique `serial`, by which results are compared.
enum CanonicalDataSet: Sendable {
    /// 24 Samples (serials 1…24) with every attribute type: duplicates, extremes, nils at
    /// different rows per attribute, and strings that differ by case, diacritics and emoji.
    /// One stored string is in NFD (`nai\u{308}ve`), and dates have sub-second fractions, so
    /// that a store normalizing strings or rounding dates answers predicates and sorts wrongly too.
    case records
    /// 4 Teams (serials 101…104, one without members or name) and 12 People (serials 1…12)
    /// with ages, managers two levels deep, symmetric friendships, and passports.
    case graph

    /// The configuration whose store holds the data set.
    var configuration: String {
        switch self {
        case .records: ConformanceModel.records
        case .graph: ConformanceModel.graph
        }
    }

    /// Inserts the data set into `stack` and saves.
    func fill(_ stack: CheckStack) throws {
        switch self {
        case .records:
            for values in Self.samples { try stack.insert(ConformanceModel.sample, values) }
        case .graph: try Self.fillGraph(stack)
        }
        try stack.save()
    }

    // The Records data set.

    /// The integers the numeric attributes are derived from, each attribute reading them at
    /// its own rotation, so that nils and duplicates fall on different rows.
    static let integers: [Int?] = [
        nil, -32768, -100, -5, -1, 0, 0, 1, 2, 3, 7, 7, 10, 42, 99, 100, 1000, 32767, nil, 5, -7, 13, 64, 8,
    ]

    /// The strings of Samples 1…24, in order.
    static let strings: [String?] = [
        nil, "apple", "Apple", "APPLE pie", "banana", "Straße", "STRASSE", "İstanbul", "istanbul", "caf\u{E9}",
        "\u{E9}clair", "cafe", "CAF\u{C9}", "r\u{E9}sum\u{E9}", "😀 smile", "thumbs 👍🏽", "file2", "file10", "",
        "a*b?c", nil, "Zebra", "zebra", "nai\u{308}ve",
    ]

    /// The UUIDs Samples use (with nil on every fifth row).
    static let uuids: [UUID] = [
        "00000000-0000-0000-0000-000000000001", "7F000000-0000-4000-8000-000000000000",
        "80000000-0000-4000-8000-000000000000", "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF",
    ].map { UUID(uuidString: $0)! }

    /// The byte strings Samples use (with nil on every seventh row).
    static let binaries: [Data] = [
        Data([0x00]), Data([0x00, 0x01]), Data([0x01]), Data([0xFF]), Data(), Data([0x7F, 0x80]),
    ]

    /// The URLs Samples use (with nil on every sixth row).
    static let uris: [URL] = [
        "https://example.com/a", "https://example.com/b", "file:///tmp/x", "https://example.com/a?q=1",
        "urn:isbn:0451450523",
    ].map { URL(string: $0)! }

    /// The date a Sample derives from `integer`: that many hours and an eighth of a second
    /// after 2026-01-01.
    static func date(_ integer: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: 788_918_400.125 + Double(integer) * 3600)
    }

    /// The decimal a Sample derives from `integer`: a hundredth of it.
    static func decimal(_ integer: Int) -> Decimal { Decimal(integer) / 100 }

    /// The values of Samples 1…24.
    static let samples: [[String: AttributeValue]] = (0..<24).map { row in
        func integer(_ rotation: Int) -> Int? { integers[(row + rotation) % integers.count] }
        var values: [String: AttributeValue] = ["serial": .integer64(Int64(row + 1))]
        values["int16"] = integer(0).map { .integer16(Int16($0)) } ?? .null
        values["int32"] = integer(5).map { .integer32(Int32($0) * 1000) } ?? .null
        values["int64"] = integer(9).map { .integer64(Int64($0) * 1_000_000_000_003) } ?? .null
        values["decimal"] = integer(11).map { .decimal(decimal($0)) } ?? .null
        values["double"] = row == 23 ? .double(.infinity) : integer(3).map { .double(Double($0) / 4) } ?? .null
        values["float"] = integer(7).map { .float(Float($0) / 2) } ?? .null
        values["string"] = strings[row].map { .string($0) } ?? .null
        values["boolean"] = row % 4 == 3 ? .null : .boolean(row.isMultiple(of: 2))
        values["date"] = integer(13).map { .date(date($0)) } ?? .null
        values["binary"] = row % 7 == 0 ? .null : .binary(binaries[row % 7 - 1])
        values["uuid"] = row % 5 == 0 ? .null : .uuid(uuids[row % 5 - 1])
        values["uri"] = row % 6 == 0 ? .null : .uri(uris[row % 6 - 1])
        if row.isMultiple(of: 2) { values["count"] = .integer32(Int32(row)) }
        return values
    }

    /// The serials of the Samples whose `key` is nil.
    static func serialsWithNil(_ key: String) -> [Int64] {
        samples.filter { $0[key] ?? .null == .null }.compactMap { $0["serial"].flatMap { Int64(attributeValue: $0) } }
    }

    // The Graph data set.

    /// Teams by serial: their names.
    static let teams: [(serial: Int64, name: String?)] = [(101, "Red"), (102, "blue"), (103, "Grün"), (104, nil)]

    /// People by serial: name, age, team serial, manager serial.
    static let people: [(serial: Int64, name: String?, age: Int32?, team: Int64?, manager: Int64?)] = [
        (1, "Ada", 36, 101, nil), (2, "bob", nil, 101, 1), (3, "Chloé", 29, 102, 1), (4, "dave", 41, nil, 2),
        (5, "Émile", 29, 102, 2), (6, "frank", 17, 103, nil), (7, nil, 65, 101, 6), (8, "Åsa", nil, nil, 6),
        (9, "zoë", 23, 103, 8), (10, "Zoe", 52, 102, 8), (11, "Ada", 36, nil, 4), (12, "Strauß", 30, 101, nil),
    ]

    /// Pairs of friends (friendship is symmetric).
    static let friendships: [(Int64, Int64)] = [
        (1, 2), (1, 3), (1, 4), (2, 5), (3, 6), (4, 7), (6, 9), (9, 10), (10, 11), (1, 12),
    ]

    /// People with a passport, and its number.
    static let passports: [(holder: Int64, number: String)] = [
        (1, "P-01"), (3, "P-03"), (5, "P-05"), (7, "P-07"), (9, "P-09"),
    ]

    private static func fillGraph(_ stack: CheckStack) throws {
        var teamsBySerial: [Int64: ManagedObject] = [:]
        for team in teams {
            teamsBySerial[team.serial] = try stack.insert(
                "Team", ["serial": .integer64(team.serial), "name": team.name.map { .string($0) } ?? .null])
        }
        var peopleBySerial: [Int64: ManagedObject] = [:]
        for person in people {
            peopleBySerial[person.serial] = try stack.insert(
                "Person",
                [
                    "serial": .integer64(person.serial), "name": person.name.map { .string($0) } ?? .null,
                    "age": person.age.map { .integer32($0) } ?? .null,
                ])
        }
        try stack.run {
            for person in people {
                let object = peopleBySerial[person.serial]!
                try object.setObject(person.team.flatMap { teamsBySerial[$0] }, forKey: "team")
                try object.setObject(person.manager.flatMap { peopleBySerial[$0] }, forKey: "manager")
            }
            for (first, second) in friendships {
                try peopleBySerial[first]!.addObject(peopleBySerial[second]!, forKey: "friends")
            }
        }
        for passport in passports {
            let object = try stack.insert("Passport", ["number": .string(passport.number)])
            try stack.run { try object.setObject(peopleBySerial[passport.holder], forKey: "holder") }
        }
    }
}
