import Testing

@testable import Strata

@Suite struct LikePatternTests {
    @Test func repeatedStarsActAsOne() {
        let pattern = LikePattern("a***b", options: [])
        #expect(pattern.matches("ab"))
        #expect(pattern.matches("axxb"))
        #expect(!pattern.matches("axxc"))
    }

    @Test func patternIsReusable() {
        let pattern = LikePattern("?at", options: .caseInsensitive)
        #expect(pattern.matches("Cat"))
        #expect(pattern.matches("HAT"))
        #expect(!pattern.matches("at"))
        #expect(!pattern.matches("cats"))
    }

    @Test func pathologicalPatternFinishesQuickly() {
        let text = String(repeating: "a", count: 2000)
        let pattern = LikePattern(String(repeating: "*a", count: 50) + "b", options: [])
        #expect(!pattern.matches(text))
        #expect(LikePattern(String(repeating: "*a", count: 50), options: []).matches(text))
    }

    @Test func everyRegularExpressionCharacterIsLiteral() {
        for special in [".", "+", "^", "$", "(", ")", "[", "]", "{", "}", "|", "\\", "%", "_"] {
            #expect(LikePattern("x\(special)y", options: []).matches("x\(special)y"), "\(special)")
            #expect(!LikePattern("x\(special)y", options: []).matches("xzy"), "\(special)")
        }
    }
}
