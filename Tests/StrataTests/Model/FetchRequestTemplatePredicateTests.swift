import Testing

@testable import Strata

@Suite struct FetchRequestTemplatePredicateTests {
    @Test func substitutesTheTemplatesVariables() throws {
        let template = FetchRequestTemplate(
            name: "postsByAuthor", entityName: "Post", predicateFormat: "author.name == $NAME AND year > $YEAR")
        let predicate = try template.predicate(substituting: ["NAME": .string("Ada"), "YEAR": .integer64(1840)])
        #expect(predicate == (try FetchPredicate(format: "author.name == 'Ada' AND year > 1840")))
    }

    @Test func aTemplateWithoutAPredicateFetchesEverything() throws {
        let template = FetchRequestTemplate(name: "all", entityName: "Post")
        #expect(try template.predicate(substituting: [:]) == nil)
    }

    @Test func errorsNameTheTemplate() {
        let broken = FetchRequestTemplate(name: "broken", entityName: "Post", predicateFormat: "title ==")
        do {
            _ = try broken.predicate(substituting: [:])
            Issue.record("a broken template parsed")
        } catch {
            #expect(error.code == .syntax)
            #expect(error.offset == 8)
            #expect(
                error.message.hasPrefix(
                    "Fetch request template 'broken' of 'Post': Syntax error: expected an expression"))
        }
        let missing = FetchRequestTemplate(name: "byName", entityName: "Post", predicateFormat: "title == $TITLE")
        #expect {
            try missing.predicate(substituting: [:])
        } throws: { error in
            guard let error = error as? FetchPredicateError else { return false }
            return error.code == .unknownVariable && error.message.contains("'byName'")
                && error.message.contains("$TITLE")
        }
    }
}
