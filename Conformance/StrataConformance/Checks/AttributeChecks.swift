import Foundation
import Strata

/// C: every attribute type, edge value by edge value, reads back exactly after reopening.
enum AttributeChecks {
    static var all: [ConformanceCheck] {
        edgeValues.map { roundTrip($0.type, $0.edge, $0.value) }
            + ConformanceModel.sampleTypes.map(nullRoundTrip) + defaults + [convertibleValues]
    }

    /// Values of another type that convert exactly to each attribute's type, with what they
    /// convert to: Integer 64 `1` for a Boolean, a Double for a Float, and so on.
    private static let convertibleValueCases: [(key: String, given: AttributeValue, stored: AttributeValue)] = [
        ("int16", .integer64(-7), .integer16(-7)), ("int32", .integer16(300), .integer32(300)),
        ("int64", .integer32(.max), .integer64(Int64(Int32.max))), ("decimal", .integer64(12), .decimal(12)),
        ("double", .integer64(3), .double(3)), ("float", .double(0.5), .float(0.5)),
        ("boolean", .integer64(1), .boolean(true)),
    ]

    /// Changes reach a store only with values of their attribute's type: a value that merely
    /// converts (Integer 64 `1` for a Boolean) is converted before the store sees it, so that
    /// a save the store acknowledged reads back, with the attribute's own type.
    private static let convertibleValues = ConformanceCategory.attributes.check(
        "convertibleValuesSaveAsTheAttributeType",
        "Values saved through the store interface that convert to their attribute's type read back, after "
            + "reopening, as values of that type."
    ) { harness in
        let id = try harness.withStore { stack in
            let id = try stack.store.permanentIDs(forEntities: [ConformanceModel.sample])[0]
            var values: PropertyValues = ["serial": 1]
            for (key, given, _) in Self.convertibleValueCases { values[key] = given }
            try stack.save(StoreChangeSet(inserted: [.init(objectID: id, values: values, expectedVersion: 0)]))
            return id
        }
        try harness.withStore { stack in
            let snapshot = try require(
                try stack.store.snapshot(for: id), "The saved Sample is missing after reopening.")
            for (key, given, stored) in Self.convertibleValueCases {
                let read = snapshot.values[key] ?? .null
                try expect(
                    read.isIdentical(to: stored),
                    "Sample.\(key) was saved as \(given.exactDescription) but read back as \(read.exactDescription), "
                        + "not \(stored.exactDescription).")
            }
        }
    }

    /// Each attribute type's edge values, named for check identifiers.
    static let edgeValues: [(type: AttributeType, edge: String, value: AttributeValue)] =
        integerEdges + floatingPointEdges + decimalEdges + stringEdges + binaryEdges + dateEdges + otherEdges

    private static let integerEdges: [(type: AttributeType, edge: String, value: AttributeValue)] = [
        (.integer16, "min", .integer16(.min)), (.integer16, "max", .integer16(.max)),
        (.integer16, "zero", .integer16(0)), (.integer16, "minusOne", .integer16(-1)),
        (.integer32, "min", .integer32(.min)), (.integer32, "max", .integer32(.max)),
        (.integer32, "zero", .integer32(0)), (.integer32, "minusOne", .integer32(-1)),
        (.integer64, "min", .integer64(.min)), (.integer64, "max", .integer64(.max)),
        (.integer64, "zero", .integer64(0)), (.integer64, "minusOne", .integer64(-1)),
        // Odd values beyond 2^53, which a Double cannot hold: a store keeping integers through
        // floating point changes them.
        (.integer64, "twoToThe53PlusOne", .integer64(9_007_199_254_740_993)),
        (.integer64, "maxMinusOne", .integer64(.max - 1)),
        (.integer64, "minusTwoToThe53MinusOne", .integer64(-9_007_199_254_740_993)),
    ]

    private static let floatingPointEdges: [(type: AttributeType, edge: String, value: AttributeValue)] = [
        (.double, "positiveZero", .double(0)), (.double, "negativeZero", .double(-0.0)),
        (.double, "infinity", .double(.infinity)), (.double, "negativeInfinity", .double(-.infinity)),
        (.double, "nan", .double(.nan)), (.double, "subnormal", .double(.leastNonzeroMagnitude)),
        (.double, "greatest", .double(.greatestFiniteMagnitude)), (.double, "pi", .double(.pi)),
        (.float, "positiveZero", .float(0)), (.float, "negativeZero", .float(-0.0)),
        (.float, "infinity", .float(.infinity)), (.float, "negativeInfinity", .float(-.infinity)),
        (.float, "nan", .float(.nan)), (.float, "subnormal", .float(.leastNonzeroMagnitude)),
        (.float, "greatest", .float(.greatestFiniteMagnitude)), (.float, "pi", .float(.pi)),
    ]

    private static let decimalEdges: [(type: AttributeType, edge: String, value: AttributeValue)] = [
        (.decimal, "zero", .decimal(0)),
        (.decimal, "thirtyEightDigits", .decimal(Decimal(string: "12345678901234567890123456789012345678")!)),
        (.decimal, "negativeFraction", .decimal(Decimal(string: "-1234.5678")!)),
        (.decimal, "largeExponent", .decimal(Decimal(sign: .plus, exponent: 120, significand: 7))),
        (.decimal, "smallExponent", .decimal(Decimal(sign: .minus, exponent: -120, significand: 3))),
    ]

    private static let stringEdges: [(type: AttributeType, edge: String, value: AttributeValue)] = [
        (.string, "empty", .string("")), (.string, "nul", .string("before\u{0}after")),
        (.string, "nfc", .string("caf\u{E9}")), (.string, "nfd", .string("cafe\u{301}")),
        (.string, "emoji", .string("👩‍👩‍👧‍👦 🏳️‍🌈 🇯🇵")), (.string, "rightToLeft", .string("שלום עולם · مرحبا بالعالم")),
        (.string, "controlCharacters", .string("tab\tline\nreturn\r'quote\"back\\slash")),
        (.string, "megabyte", .string(String(repeating: "Strata ストラタ ✓ ", count: 1 << 16))),
    ]

    private static let binaryEdges: [(type: AttributeType, edge: String, value: AttributeValue)] = [
        (.binary, "empty", .binary(Data())), (.binary, "everyByte", .binary(Data((0...255).map { UInt8($0) }))),
        (
            .binary, "megabyte",
            .binary(Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }))
        ),
        (.transformable, "bytes", .binary(Data(#"{"colour":"teal","sizes":[1,2,3]}"#.utf8))),
    ]

    private static let dateEdges: [(type: AttributeType, edge: String, value: AttributeValue)] = [
        (.date, "referenceDate", .date(Date(timeIntervalSinceReferenceDate: 0))),
        (.date, "before1970", .date(Date(timeIntervalSince1970: -1_234_567_890.5))),
        (.date, "distantPast", .date(.distantPast)), (.date, "distantFuture", .date(.distantFuture)),
        (.date, "subMicrosecond", .date(Date(timeIntervalSinceReferenceDate: 754_000_000.000_000_123_4))),
        (.date, "negativeFraction", .date(Date(timeIntervalSinceReferenceDate: -0.000_001_5))),
    ]

    private static let otherEdges: [(type: AttributeType, edge: String, value: AttributeValue)] = [
        (.boolean, "true", .boolean(true)), (.boolean, "false", .boolean(false)),
        (.uuid, "random", .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
        (.uuid, "allZero", .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))),
        (.uri, "web", .uri(URL(string: "https://example.com/a/b?q=1&r=%20#part")!)),
        (.uri, "file", .uri(URL(fileURLWithPath: "/tmp/Strata folder/notes.txt"))),
        (.uri, "relative", .uri(URL(string: "docs/readme.md")!)),
        (.uri, "unicode", .uri(URL(string: "https://example.com/caf%C3%A9/%E2%98%95")!)),
    ]

    private static func roundTrip(_ type: AttributeType, _ edge: String, _ value: AttributeValue) -> ConformanceCheck {
        let key = ConformanceModel.attributeName(for: type)
        return ConformanceCategory.attributes.check(
            "\(key).\(edge)", "A \(type) attribute holding \(edge) reads back exactly after reopening."
        ) { harness in
            let read = try saveAndReadBack(key, value, in: harness)
            try expect(
                read.isIdentical(to: value),
                "Sample.\(key) was saved as \(value.exactDescription) but read back as \(read.exactDescription).")
        }
    }

    private static func nullRoundTrip(_ type: AttributeType) -> ConformanceCheck {
        let key = ConformanceModel.attributeName(for: type)
        return ConformanceCategory.attributes.check(
            "\(key).nil", "A \(type) attribute set to nil reads back as nil, not as an empty or zero value."
        ) { harness in
            let read = try saveAndReadBack(key, .null, in: harness)
            try expect(read.isNull, "Sample.\(key) was saved as nil but read back as \(read.exactDescription).")
        }
    }

    private static var defaults: [ConformanceCheck] {
        [
            ConformanceCategory.attributes.check(
                "defaults.kept", "Attributes left alone keep the model's defaults after reopening."
            ) { harness in
                try harness.withStore { stack in
                    try stack.insert(ConformanceModel.sample, ["serial": 1])
                    try stack.save()
                }
                try harness.withStore { stack in
                    let object = try require(
                        try stack.objects(ConformanceModel.sample).first, "The saved Sample is missing after reopening."
                    )
                    try expectEqual(try stack.value(object, "count"), 42, "Sample.count")
                    try expectEqual(try stack.value(object, "label"), "unnamed", "Sample.label")
                    try expectEqual(try stack.value(object, "flag"), true, "Sample.flag")
                }
            },
            ConformanceCategory.attributes.check(
                "defaults.overriddenByNil", "An attribute with a default that was set to nil stays nil after reopening."
            ) { harness in
                let read = try saveAndReadBack("label", .null, in: harness)
                try expect(read.isNull, "Sample.label was saved as nil but read back as \(read.exactDescription).")
            },
        ]
    }

    /// Saves a `Sample` whose `key` is `value`, reopens, and returns what `key` holds.
    private static func saveAndReadBack(
        _ key: String, _ value: AttributeValue, in harness: CheckHarness
    ) throws -> AttributeValue {
        try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 1, key: value])
            try stack.save()
        }
        return try harness.withStore { stack in
            let objects = try stack.objects(ConformanceModel.sample)
            try expectEqual(objects.count, 1, "Sample objects after reopening")
            return try stack.value(objects[0], key)
        }
    }
}
