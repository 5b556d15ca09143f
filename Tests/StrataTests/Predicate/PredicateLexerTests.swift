import Testing

@testable import Strata

@Suite struct PredicateLexerTests {
    /// The kinds of every token of `format`, up to and including the end.
    func kinds(_ format: String) throws -> [PredicateToken.Kind] {
        var lexer = PredicateLexer(PredicateSource(format))
        var kinds: [PredicateToken.Kind] = []
        while true {
            let token = try lexer.next()
            kinds.append(token.kind)
            if token.kind == .end { return kinds }
        }
    }

    @Test func operatorsTakeTheLongestSpelling() throws {
        #expect(
            try kinds("== = != <> <= =< >= => < > && || ! -")
                == [
                    .symbol(.equalTo), .symbol(.equalTo), .symbol(.notEqualTo), .symbol(.notEqualTo),
                    .symbol(.lessThanOrEqualTo), .symbol(.lessThanOrEqualTo), .symbol(.greaterThanOrEqualTo),
                    .symbol(.greaterThanOrEqualTo), .symbol(.lessThan), .symbol(.greaterThan), .symbol(.and),
                    .symbol(.or),
                    .symbol(.not), .symbol(.minus), .end,
                ])
        #expect(try kinds("===") == [.symbol(.equalTo), .symbol(.equalTo), .end])
        #expect(
            try kinds("a<-1") == [
                .identifier("a"), .symbol(.lessThan), .symbol(.minus), .integer("1", radix: 10), .end,
            ])
    }

    @Test func namesVariablesAndOperators() throws {
        #expect(
            try kinds("a_1.@count $x #in é")
                == [
                    .identifier("a_1"), .symbol(.dot), .collectionOperator("count"), .variable("x"),
                    .escapedIdentifier("in"), .identifier("é"), .end,
                ])
        #expect(try kinds("e\u{301}x") == [.identifier("e\u{301}x"), .end])
    }

    @Test func numbers() throws {
        #expect(
            try kinds("12 1.5 1e5 1E-2 2.5e+3 0x1f 0o17 0b10 1.x")
                == [
                    .integer("12", radix: 10), .real("1.5"), .real("1e5"), .real("1e-2"), .real("2.5e+3"),
                    .integer("1f", radix: 16), .integer("17", radix: 8), .integer("10", radix: 2),
                    .integer("1", radix: 10), .symbol(.dot), .identifier("x"), .end,
                ])
    }

    @Test func placeholders() throws {
        #expect(
            try kinds("%@ %K %d %i %ld %lld %u %f %lf")
                == [
                    .placeholder(.object), .placeholder(.keyPath), .placeholder(.integer("%d")),
                    .placeholder(.integer("%i")), .placeholder(.integer("%ld")), .placeholder(.integer("%lld")),
                    .placeholder(.integer("%u")), .placeholder(.floating("%f")), .placeholder(.floating("%lf")), .end,
                ])
        #expect(throws: FetchPredicateError.self) { try kinds("%llld") }
        #expect(throws: FetchPredicateError.self) { try kinds("%%") }
    }

    @Test func quotesAndBackslashesFollowedByCombiningMarksStillCount() throws {
        #expect(try kinds("\"\u{301}x\"") == [.string("\u{301}x"), .end])
        #expect(try kinds("'\\\"\u{301}'") == [.string("\"\u{301}"), .end])
    }

    @Test func stringsMayContainAnything() throws {
        #expect(try kinds("'a\nb' \"%@ 'x'\"") == [.string("a\nb"), .string("%@ 'x'"), .end])
        #expect(try kinds(#"'\q'"#) == [.string(#"\q"#), .end])
    }
}
