import Testing

@testable import Strata

@Suite struct RegularExpressionPatternTests {
    @Test func matchesTheWholeString() throws {
        let pattern = try RegularExpressionPattern("[0-9]+", options: [])
        #expect(pattern.matches("2024"))
        #expect(!pattern.matches("2024a"))
        #expect(!pattern.matches("a2024"))
        #expect(!pattern.matches(""))
    }

    @Test func optionsApply() throws {
        #expect(try RegularExpressionPattern("straße", options: .caseInsensitive).matches("STRASSE"))
        #expect(try RegularExpressionPattern("stra(ß|ss)e", options: .caseInsensitive).matches("STRASSE"))
        #expect(try RegularExpressionPattern("ecole", options: .diacriticInsensitive).matches("école"))
        #expect(try RegularExpressionPattern("école", options: .diacriticInsensitive).matches("ecole"))
        #expect(try !RegularExpressionPattern("école", options: []).matches("ecole"))
    }

    @Test func matchesSupplementaryCharacters() throws {
        #expect(try RegularExpressionPattern("..", options: []).matches("👍🏽"))
        #expect(try RegularExpressionPattern("\\X", options: []).matches("👍🏽"))
    }

    @Test func invalidPatternThrowsAnEvaluationError() {
        #expect(throws: FetchPredicateError.self) { try RegularExpressionPattern("(", options: []) }
    }

    @Test func patternEndingInsideAQuoteStillMatchesWholeStrings() throws {
        let pattern = try RegularExpressionPattern(#"\Qa.b"#, options: [])
        #expect(pattern.matches("a.b"))
        #expect(!pattern.matches("axb"))
        #expect(!pattern.matches("a.bc"))
    }

    @Test func patternEndingInAnExtendedModeCommentStillMatchesWholeStrings() throws {
        let pattern = try RegularExpressionPattern(#"(?x) a \. b  # a dot"#, options: [])
        #expect(pattern.matches("a.b"))
        #expect(!pattern.matches("a.bc"))
    }

    @Test func alternationMatchesTheWholeStringNotThePrefix() throws {
        let pattern = try RegularExpressionPattern("a|ab", options: [])
        #expect(pattern.matches("ab"))
        #expect(pattern.matches("a"))
        #expect(!pattern.matches("abc"))
    }
}
