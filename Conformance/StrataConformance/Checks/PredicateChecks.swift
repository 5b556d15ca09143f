import Foundation
import Strata

/// F: every predicate operator, compared with the in-memory oracle on the canonical data sets,
/// through a context and through the store SPI.
enum PredicateChecks {
    static var all: [ConformanceCheck] {
        probes.map(equalityCheck) + probes.filter(\.isOrdered).map(orderingCheck)
            + probes.filter(\.isOrdered).map(betweenCheck) + probes.map(inCheck) + stringOperatorChecks
            + [
                mixedNumbers, keyPathToKeyPath, decimalAgainstDouble, booleanLiterals, equalsNil, notEqualsNil,
                notEqualMatchesNil, comparisonExcludesNil, stringOperatorsOnNil, comparisonOptions, sharpS, dottedI,
                normalization, emoji, keyPathToOne, objectReferences, keyPathNilInMiddle,
                quantifierAny, quantifierAll, quantifierNone, count, sum, average, minimum, maximum, unions, subquery,
                compoundAnd,
                compoundOr, compoundNot, nesting, truePredicate,
                falsePredicate, functions, arithmetic, integersBeyondDoubles,
            ]
    }

    private static let category = ConformanceCategory.predicates

    // Per attribute type.

    /// What a family of checks probes one attribute type with: a value some Samples have,
    /// another one, one none has, and an inclusive range.
    private struct Probe: Sendable {
        let type: AttributeType
        let present: AttributeValue
        let other: AttributeValue
        let absent: AttributeValue
        let range: (low: AttributeValue, high: AttributeValue)?
        var key: String { ConformanceModel.attributeName(for: type) }
        var isOrdered: Bool { range != nil }
    }

    private static let probes: [Probe] = [
        Probe(
            type: .integer16, present: .integer16(7), other: .integer16(-5), absent: .integer16(12345),
            range: (.integer16(-5), .integer16(42))),
        Probe(
            type: .integer32, present: .integer32(7000), other: .integer32(-1000), absent: .integer32(1234),
            range: (.integer32(-5000), .integer32(42000))),
        Probe(
            type: .integer64, present: .integer64(7_000_000_000_021), other: .integer64(-5_000_000_000_015),
            absent: .integer64(7_000_000_000_020),
            range: (.integer64(-5_000_000_000_015), .integer64(42_000_000_000_126))),
        Probe(
            type: .decimal, present: .decimal(CanonicalDataSet.decimal(7)),
            other: .decimal(CanonicalDataSet.decimal(-5)),
            absent: .decimal(CanonicalDataSet.decimal(3333)),
            range: (.decimal(CanonicalDataSet.decimal(-5)), .decimal(CanonicalDataSet.decimal(42)))),
        Probe(
            type: .double, present: .double(1.75), other: .double(-1.25), absent: .double(3.3),
            range: (.double(-1.25), .double(10.5))),
        Probe(
            type: .float, present: .float(3.5), other: .float(-2.5), absent: .float(0.3),
            range: (.float(-2.5), .float(21))),
        Probe(type: .string, present: "apple", other: "banana", absent: "cherry", range: ("Apple", "banana")),
        Probe(type: .boolean, present: true, other: false, absent: .integer64(2), range: nil),
        Probe(
            type: .date, present: .date(CanonicalDataSet.date(7)), other: .date(CanonicalDataSet.date(-5)),
            absent: .date(CanonicalDataSet.date(11)),
            range: (.date(CanonicalDataSet.date(-5)), .date(CanonicalDataSet.date(42)))),
        Probe(
            type: .binary, present: .binary(CanonicalDataSet.binaries[1]), other: .binary(Data()),
            absent: .binary(Data([9])), range: nil),
        Probe(
            type: .uuid, present: .uuid(CanonicalDataSet.uuids[0]), other: .uuid(CanonicalDataSet.uuids[3]),
            absent: .uuid(UUID(uuidString: "12345678-1234-4234-8234-123456789ABC")!), range: nil),
        Probe(
            type: .uri, present: .uri(CanonicalDataSet.uris[0]), other: .uri(CanonicalDataSet.uris[3]),
            absent: .uri(URL(string: "https://example.org")!), range: nil),
    ]

    private static func equalityCheck(_ probe: Probe) -> ConformanceCheck {
        check(
            "equal.\(probe.key)", "== and != on \(probe.type) attributes, a constant on either side.",
            [
                sample("%K == %@", probe.key, probe.present), sample("%K != %@", probe.key, probe.present),
                sample("%K == %@", probe.key, probe.other), sample("%K == %@", probe.key, probe.absent),
                sample("%K != %@", probe.key, probe.absent), sample("%@ == %K", probe.present, probe.key),
            ])
    }

    private static func orderingCheck(_ probe: Probe) -> ConformanceCheck {
        check(
            "order.\(probe.key)", "<, <=, > and >= on \(probe.type) attributes, a constant on either side.",
            ["<", "<=", ">", ">="].map { sample("%K \($0) %@", probe.key, probe.present) }
                + [sample("%K < %@", probe.key, probe.absent), sample("%@ < %K", probe.present, probe.key)])
    }

    private static func betweenCheck(_ probe: Probe) -> ConformanceCheck {
        let (low, high) = probe.range!
        return check(
            "between.\(probe.key)",
            "BETWEEN on \(probe.type) attributes includes both bounds; reversed bounds match nothing.",
            [
                sample("%K BETWEEN %@", probe.key, [low, high]), sample("%K BETWEEN %@", probe.key, [high, low]),
                sample("%K BETWEEN %@", probe.key, [probe.present, probe.present]),
                sample("NOT (%K BETWEEN %@)", probe.key, [low, high]),
            ])
    }

    private static func inCheck(_ probe: Probe) -> ConformanceCheck {
        let members = [probe.present, probe.other, probe.absent]
        return check(
            "in.\(probe.key)", "IN on \(probe.type) attributes, its negation (which matches nil), and an empty list.",
            [
                sample("%K IN %@", probe.key, members), sample("NOT (%K IN %@)", probe.key, members),
                sample("%K IN %@", probe.key, [AttributeValue]()), sample("%K IN %@", probe.key, [probe.absent]),
            ])
    }

    static let mixedNumbers = check(
        "compare.mixedNumbers", "Numbers of different types compare by value: an integer attribute with a double.",
        [
            sample("int16 == 7.0"), sample("int16 < 7.5"), sample("double == 7"), sample("float >= 1"),
            sample("int64 > 1.5"), sample("int32 == %@", Int16(7)), sample("boolean == 1"),
        ])

    static let keyPathToKeyPath = check(
        "compare.keyPathToKeyPath", "An attribute compared with another attribute of the same object.",
        [
            sample("int16 < int32"), sample("int16 == int32"), sample("double >= float"), sample("int16 != float"),
        ])

    static let decimalAgainstDouble = check(
        "decimal.againstDouble", "A decimal attribute meets a double constant as its shortest decimal form.",
        [sample("decimal == 0.07"), sample("decimal < 0.1"), sample("decimal >= -0.05"), sample("decimal == 327.67")])

    /// Integers a Double cannot tell apart, compared and sorted exactly after reopening.
    static let integersBeyondDoubles = category.check(
        "compare.integersBeyondDoubles",
        "Integer 64 values beyond 2^53 that a Double cannot tell apart compare and sort exactly."
    ) { harness in
        let values: [Int64] = [9_007_199_254_740_992, 9_007_199_254_740_993, .max - 1, .max]
        try harness.withStore { stack in
            for (index, value) in values.enumerated() {
                _ = try stack.insert(
                    ConformanceModel.sample, ["serial": .integer64(Int64(index)), "int64": .integer64(value)])
            }
            try stack.save()
        }
        try harness.withStore { stack in
            func serials(_ format: String, _ value: Int64) throws -> [AttributeValue] {
                try stack.objects(
                    ConformanceModel.sample, where: format, arguments: [value],
                    sortedBy: [FetchSortDescriptor("serial")]
                ).map { try stack.value($0, "serial") }
            }
            try expectEqual(try serials("int64 == %@", 9_007_199_254_740_993), [.integer64(1)], "int64 == 2^53 + 1")
            try expectEqual(
                try serials("int64 > %@", 9_007_199_254_740_992), [.integer64(1), .integer64(2), .integer64(3)],
                "int64 > 2^53")
            try expectEqual(
                try serials("int64 < %@", .max), [.integer64(0), .integer64(1), .integer64(2)], "int64 < max")
            let sorted = try stack.objects(
                ConformanceModel.sample, sortedBy: [FetchSortDescriptor("int64", ascending: false)]
            ).map { try stack.value($0, "int64") }
            try expectEqual(sorted, values.reversed().map { .integer64($0) }, "Sorted by int64, descending")
        }
    }

    static let booleanLiterals = check(
        "boolean.literals", "YES, NO, TRUE and FALSE compare with boolean attributes; != YES matches nil.",
        [
            sample("boolean == YES"), sample("boolean == NO"), sample("boolean != YES"), sample("boolean == TRUE"),
            sample("boolean != FALSE"),
        ])

    // Nil semantics.

    private static let nilKeys = [
        "int16", "int32", "decimal", "double", "string", "boolean", "date", "binary", "uuid", "uri",
    ]

    static let equalsNil = check(
        "nil.equalsNil", "`key == nil` matches exactly the objects without a value, for every attribute type.",
        nilKeys.map { sample("%K == nil", $0, expecting: CanonicalDataSet.serialsWithNil($0)) }
            + [sample("nil == int16"), sample("string == %@", AttributeValue.null)])

    static let notEqualsNil = check(
        "nil.notEqualsNil", "`key != nil` matches exactly the objects with a value, for every attribute type.",
        nilKeys.map { sample("%K != nil", $0) })

    static let notEqualMatchesNil = check(
        "nil.notEqualMatchesNil", "`key != value` matches the objects without a value too.",
        [
            sample("int16 != 7", expecting: allSerials.filter { ![11, 12].contains($0) }),
            sample("string != 'apple'", expecting: allSerials.filter { $0 != 2 }),
            sample("date != %@", CanonicalDataSet.date(7)), sample("uuid != %@", CanonicalDataSet.uuids[0]),
            sample("boolean != NO"),
        ])

    static let comparisonExcludesNil = check(
        "nil.comparisonExcludesNil", "Ordering comparisons and BETWEEN never match an object without a value.",
        [
            sample("int16 >= -32768", expecting: allSerials.filter { ![1, 19].contains($0) }),
            sample("int16 < 100000"), sample("string < 'zzz'"), sample("date > %@", CanonicalDataSet.date(-40000)),
            sample("double BETWEEN {-1e300, 1e300}"), sample("decimal <= 1000"),
        ])

    static let stringOperatorsOnNil = check(
        "nil.stringOperators", "String operators never match nil; their negation does.",
        [
            sample("string BEGINSWITH 'a'"), sample("NOT string BEGINSWITH 'a'"), sample("NOT string CONTAINS[cd] 'E'"),
            sample("NOT string LIKE '*'"), sample("NOT string MATCHES '.*'"), sample("string IN {'apple', 'Zebra'}"),
        ])

    // Strings.

    /// A string operator, its keyword, and the patterns each of its checks tries under one option.
    private struct StringOperator: Sendable {
        let name: String
        let keyword: String
        let patterns: [String]
    }

    private static let stringOperators = [
        StringOperator(
            name: "equal", keyword: "==", patterns: ["apple", "APPLE", "cafe", "CAF\u{C9}", "resume", "zebra"]),
        StringOperator(
            name: "beginsWith", keyword: "BEGINSWITH",
            patterns: ["app", "APP", "cafe", "CAF\u{C9}", "z", "\u{E9}", "file1"]),
        StringOperator(name: "endsWith", keyword: "ENDSWITH", patterns: ["e", "PIE", "\u{C9}", "SUME", "bra", "ANA"]),
        StringOperator(
            name: "contains", keyword: "CONTAINS", patterns: ["an", "STRAS", "sume", "\u{C9}", "ppl", "*", "I"]),
        StringOperator(
            name: "like", keyword: "LIKE", patterns: ["a*", "?pple", "APPLE*", "cafe", "CAF?", "*e", "file??", "*"]),
        StringOperator(
            name: "matches", keyword: "MATCHES",
            patterns: ["[a-z]+", ".*\\d+", "APPLE", "cafe", "CAFE", "app", "r.sum."]),
    ]

    /// The string options, each with the suffix of its checks' identifiers and its words.
    private static let stringOptions: [(option: String, suffix: String, words: String)] = [
        ("", "", "without options"), ("[c]", ".caseInsensitive", "with [c]"),
        ("[d]", ".diacriticInsensitive", "with [d]"), ("[cd]", ".caseAndDiacriticInsensitive", "with [cd]"),
    ]

    private static var stringOperatorChecks: [ConformanceCheck] {
        stringOperators.flatMap { op in
            stringOptions.map { option in
                check(
                    "string.\(op.name)\(option.suffix)", "\(op.keyword) on strings \(option.words).",
                    op.patterns.map { sample("string \(op.keyword)\(option.option) %@", $0) })
            }
        }
    }

    static let comparisonOptions = check(
        "string.otherComparisonsWithOptions", "!=, < and >= on strings with [c], [d] and [cd].",
        [
            sample("string !=[c] %@", "apple"), sample("string !=[d] %@", "resume"), sample("string <[c] %@", "B"),
            sample("string <[d] %@", "\u{E9}"), sample("string >=[cd] %@", "file10"),
            sample("string >=[c] %@", "STRASSE"),
        ])

    static let sharpS = check(
        "string.unicode.sharpS", "ß folds to ss under [c], but equals only itself without options.",
        [
            sample("string == %@", "Straße"), sample("string ==[c] %@", "STRASSE"), sample("string ==[c] %@", "straße"),
            sample("string BEGINSWITH[c] %@", "strass"), sample("string CONTAINS[c] %@", "ß"),
            sample("string LIKE[c] %@", "stra*e"),
        ])

    static let dottedI = check(
        "string.unicode.dottedI", "İ (U+0130) under [c] and [cd], against i and I.",
        [
            sample("string ==[c] %@", "istanbul"), sample("string ==[c] %@", "İSTANBUL"),
            sample("string ==[cd] %@", "istanbul"), sample("string BEGINSWITH[cd] %@", "ist"),
            sample("string == %@", "İstanbul"),
        ])

    static let normalization = check(
        "string.unicode.normalization",
        "An NFD constant (e + U+0301) differs from a stored NFC é without options and matches it under [d].",
        [
            sample("string == %@", "caf\u{E9}"), sample("string == %@", "cafe\u{301}"),
            sample("string ==[d] %@", "cafe\u{301}"), sample("string BEGINSWITH[d] %@", "e\u{301}"),
            sample("string ==[cd] %@", "CAFE\u{301}"), sample("string CONTAINS %@", "e\u{301}"),
            sample("string ENDSWITH[cd] %@", "SUME\u{301}"),
        ])

    static let emoji = check(
        "string.unicode.emoji", "Emoji and emoji with skin-tone modifiers in string operators.",
        [
            sample("string CONTAINS %@", "😀"), sample("string ENDSWITH %@", "👍🏽"), sample("string LIKE %@", "*👍*"),
            sample("string BEGINSWITH[cd] %@", "😀"), sample("string MATCHES %@", "😀.*"),
        ])

    // Key paths, quantifiers, aggregates and subqueries.

    static let keyPathToOne = check(
        "keyPath.toOne", "Key paths through to-one relationships, and to-one relationships compared with nil.",
        on: .graph,
        [
            person("team.name == 'Red'"), person("team.serial >= 102"), person("team.name BEGINSWITH[cd] 'gru'"),
            person("team == nil", expecting: [4, 8, 11]), person("team != nil"), person("passport.number == 'P-03'"),
            person("passport == nil"), person("age > manager.age"),
        ])

    static let objectReferences = category.check(
        "keyPath.objectReferences",
        "To-one relationships, members of to-many ones and SELF compared with object IDs, also with IN."
    ) { harness in
        try harness.withCanonicalData(.graph) { comparison in
            let queries: [(String, String, [(String, Int64)])] = [
                ("Person", "team == %@", [("Team", 101)]), ("Person", "team != %@", [("Team", 102)]),
                ("Person", "manager IN %@", [("Person", 1), ("Person", 6)]),
                ("Person", "ANY friends == %@", [("Person", 1)]),
                ("Person", "SELF == %@", [("Person", 3)]), ("Person", "SELF IN %@", [("Person", 2), ("Person", 12)]),
                ("Team", "ANY members == %@", [("Person", 7)]),
                ("Person", "NOT (team IN %@)", [("Team", 101), ("Team", 103)]),
            ]
            for (entity, format, references) in queries {
                try comparison.expectSameResults { stack in
                    let ids = try references.map { try comparison.objectID($0.0, serial: $0.1, in: stack) }
                    return OracleQuery(entity, where: format, ids.count == 1 ? [ids[0]] : [ids])
                }
            }
        }
    }

    static let keyPathNilInMiddle = check(
        "keyPath.nilInMiddle", "A key path whose middle object is nil gives nil, not an error.", on: .graph,
        [
            person("manager.manager.name == 'Ada'"), person("manager.manager.name == nil"),
            person("manager.manager.name != 'Ada'"), person("manager.team.name == nil"), person("manager.age > 30"),
            person("manager.manager.age < 100"),
        ])

    static let quantifierAny = check(
        "quantifier.any", "ANY and SOME over to-many relationships, and membership in a to-many key path.", on: .graph,
        [
            person("ANY friends.age > 40"), person("SOME friends.name == 'Ada'"),
            person("ANY friends.name BEGINSWITH[c] 'z'"), person("ANY reports.age == nil"),
            person("'Ada' IN friends.name"), team("ANY members.age < 20"),
            person("(team.name == 'Red' OR ANY friends.age > 40) AND NOT (manager == nil)"),
        ])

    static let quantifierAll = check(
        "quantifier.all", "ALL over to-many relationships, true for an empty one.", on: .graph,
        [person("ALL friends.age > 20"), person("ALL reports.name != nil"), team("ALL members.age >= 18")])

    static let quantifierNone = check(
        "quantifier.none", "NONE over to-many relationships, true for an empty one.", on: .graph,
        [person("NONE friends.age > 40"), person("NONE friends.name == 'Ada'"), team("NONE members.name == nil")])

    static let count = check(
        "aggregate.count", "@count of to-many relationships, 0 when empty.", on: .graph,
        [
            person("friends.@count == 0"), person("friends.@count >= 2"), person("reports.@count > 1"),
            team("members.@count == 0", expecting: [104]), team("members.@count > 3"),
        ])

    static let unions = check(
        "aggregate.union", "@distinctUnionOfObjects and @unionOfObjects over to-many relationships, with ANY and IN.",
        on: .graph,
        [
            person("ANY friends.@distinctUnionOfObjects.age > 40"), person("'Ada' IN friends.@unionOfObjects.name"),
            team("ANY members.@distinctUnionOfSets.name BEGINSWITH 'A'"),
        ])

    static let sum = check(
        "aggregate.sum", "@sum over to-many relationships skips nil and is 0 when empty.", on: .graph,
        [team("members.@sum.age > 60"), team("members.@sum.age == 0"), person("friends.@sum.age < 50")])

    static let average = check(
        "aggregate.avg", "@avg over to-many relationships skips nil and is nil when empty.", on: .graph,
        [team("members.@avg.age > 35"), team("members.@avg.age == nil"), person("friends.@avg.age >= 30")])

    static let minimum = check(
        "aggregate.min", "@min over to-many relationships skips nil and is nil when empty.", on: .graph,
        [team("members.@min.age < 20"), team("members.@min.age == nil"), person("friends.@min.age >= 29")])

    static let maximum = check(
        "aggregate.max", "@max over to-many relationships skips nil and is nil when empty.", on: .graph,
        [team("members.@max.age > 50"), team("members.@max.age == nil"), person("friends.@max.age <= 36")])

    static let subquery = check(
        "subquery", "SUBQUERY(...).@count with conditions on the members and on their relationships.", on: .graph,
        [
            person("SUBQUERY(friends, $f, $f.age > 30).@count >= 2"),
            person("SUBQUERY(friends, $f, $f.team.name == 'Red' AND $f.age != nil).@count > 0"),
            team("SUBQUERY(members, $m, $m.manager == nil).@count == 1"),
            team("SUBQUERY(members, $m, ANY $m.friends.age > 40).@count > 0"),
        ])

    // Compounds and constants.

    static let compoundAnd = check(
        "compound.and", "AND of comparisons, including ones that nil fails.",
        [sample("int16 > 0 AND string != nil"), sample("int16 >= 0 && double < 5 AND boolean == YES")])

    static let compoundOr = check(
        "compound.or", "OR of comparisons, including ones that nil fails.",
        [sample("int16 < 0 OR boolean == YES"), sample("string BEGINSWITH 'a' || date == nil OR uuid == nil")])

    static let compoundNot = check(
        "compound.not", "NOT of a comparison that nil fails matches the nils.",
        [
            sample("NOT (int16 > 0)"), sample("!(string == 'apple')"),
            sample("NOT (date < %@)", CanonicalDataSet.date(7)),
        ])

    static let nesting = check(
        "compound.nesting", "Nested AND, OR and NOT with parentheses.",
        [
            sample("(int16 > 0 AND (string BEGINSWITH[c] 'a' OR double < 0)) OR NOT (date == nil OR uuid != nil)"),
            sample("NOT (NOT (int32 > 0))"), sample("int16 > 0 AND (int32 > 0 OR (int64 < 0 AND NOT boolean == YES))"),
        ])

    static let truePredicate = check(
        "constant.true", "TRUEPREDICATE matches every object, also inside compounds.",
        [
            sample("TRUEPREDICATE", expecting: allSerials), sample("TRUEPREDICATE AND int16 > 0"),
            sample("FALSEPREDICATE OR int16 > 0"), sample("NOT FALSEPREDICATE"),
        ])

    static let falsePredicate = check(
        "constant.false", "FALSEPREDICATE matches no object, also inside compounds.",
        [
            sample("FALSEPREDICATE", expecting: []), sample("FALSEPREDICATE AND int16 > 0"),
            sample("NOT TRUEPREDICATE"), sample("TRUEPREDICATE AND FALSEPREDICATE"),
        ])

    static let functions = check(
        "function", "Function expressions: lowercase, uppercase, abs, sqrt:, floor: and TERNARY.",
        [
            sample("lowercase(string) == 'apple'"), sample("uppercase(string) BEGINSWITH 'CAF'"),
            sample("abs(int16) <= 5"), sample("TERNARY(int16 > 0, int16, 0 - int16) <= 5"),
            sample("sqrt:(abs(double)) < 2 AND floor:(double) == 1"),
        ])

    static let arithmetic = check(
        "arithmetic",
        "Infix arithmetic (+ - * / **, unary minus, parentheses) and modulus:by: over attributes of every numeric "
            + "type, and seconds added to and dates subtracted from dates.",
        [
            sample("int16 * 2 + 1 > 5"), sample("(int16 + 1) * 2 == 16"), sample("double - 0.5 < 1"),
            sample("int32 / 1000 >= 7"), sample("int16 ** 2 < 50"), sample("-int16 > 0"),
            sample("modulus:by:(int16, 2) == 1"), sample("int64 + 1 == 7000000000022"), sample("decimal * 2 > 10"),
            sample("float + double > 4"), sample("date + 86400 > %@", AttributeValue.date(CanonicalDataSet.date(7))),
            sample("date - date == 0"),
        ])

    // Building checks.

    private static let allSerials = (1...Int64(CanonicalDataSet.samples.count)).map { $0 }

    private static func check(
        _ name: String, _ summary: String, on dataSet: CanonicalDataSet = .records, _ queries: [OracleQuery]
    ) -> ConformanceCheck {
        category.check(name, summary, body: CheckHarness.oracleCheck(dataSet, queries))
    }

    private static func sample(
        _ format: String, _ arguments: any PredicateArgument..., expecting expected: [Int64]? = nil
    ) -> OracleQuery {
        OracleQuery(ConformanceModel.sample, where: format, arguments, expecting: expected)
    }

    private static func person(_ format: String, expecting expected: [Int64]? = nil) -> OracleQuery {
        OracleQuery("Person", where: format, expecting: expected)
    }

    private static func team(_ format: String, expecting expected: [Int64]? = nil) -> OracleQuery {
        OracleQuery("Team", where: format, expecting: expected)
    }
}
