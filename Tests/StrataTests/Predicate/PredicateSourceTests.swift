import Testing

@testable import Strata

@Suite struct PredicateSourceTests {
    @Test func offsetsCountCharactersNotScalars() {
        let source = PredicateSource("e\u{301}🇫🇷 == 1")
        #expect(source.scalars.count == 9)
        #expect(source.characterOffset(0) == 0)
        #expect(source.characterOffset(2) == 1)
        #expect(source.characterOffset(4) == 2)
        #expect(source.characterOffset(9) == 7)
        #expect(source.characterOffset(99) == 7)
    }

    /// Characters of several scalars: combining marks, flags side by side, an emoji sequence
    /// joined with zero-width joiners, Hangul jamo and CRLF. At every scalar offset, even inside
    /// a character, the character offset is the count of the characters of the prefix before it.
    @Test func offsetsCountTheCharactersOfEachPrefix() {
        let source = PredicateSource("e\u{301}\u{302} 🇫🇷🇩🇪 👩‍👩‍👧 \u{1100}\u{1161}\u{11A8}\r\n == 'x'")
        for offset in 0...source.scalars.count {
            var prefix = String.UnicodeScalarView()
            prefix.append(contentsOf: source.scalars[..<offset])
            #expect(source.characterOffset(offset) == String(prefix).count, "scalar offset \(offset)")
        }
    }

    @Test func excerptsAreQuotedAndShort() {
        let source = PredicateSource("name == 'a string' AND " + String(repeating: "x", count: 40))
        #expect(source.excerpt(from: 0, to: 4) == "'name'")
        #expect(source.excerpt(from: 8, to: 18) == "'a string'")
        #expect(source.excerpt(from: 23, to: 63) == "'" + String(repeating: "x", count: 24) + "…'")
    }

    @Test func errorsQuoteTheFormatAroundTheOffset() {
        let format = String(repeating: "a", count: 300) + "!" + String(repeating: "b", count: 300)
        let error = PredicateSource(format).syntaxError("expected nothing", at: 300)
        #expect(error.code == .syntax)
        #expect(error.offset == 300)
        #expect(
            error.message.contains(
                "…" + String(repeating: "a", count: 80) + "!" + String(repeating: "b", count: 79) + "…"))
    }

    @Test func longFormatsAreQuotedByCharacters() {
        let format = String(repeating: "e\u{301}", count: 200) + "!" + String(repeating: "🇫🇷", count: 200)
        let error = PredicateSource(format).syntaxError("expected nothing", at: 400)
        #expect(error.offset == 200)
        #expect(
            error.message.contains(
                "…" + String(repeating: "e\u{301}", count: 80) + "!" + String(repeating: "🇫🇷", count: 79) + "…"))
    }
}
