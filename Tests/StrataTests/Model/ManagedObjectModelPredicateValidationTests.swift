import Testing

@testable import Strata

@Suite struct ManagedObjectModelPredicateValidationTests {
    func model(templateFormat: String?, fetchedFormat: String?, indexFormat: String?) -> ManagedObjectModel {
        let post = EntityDescription(
            name: "Post", attributes: [AttributeDescription(name: "title", type: .string)],
            fetchedProperties: [
                FetchedPropertyDescription(
                    name: "related", destinationEntityName: "Post", predicateFormat: fetchedFormat)
            ],
            fetchIndexes: [
                FetchIndexDescription(
                    name: "byTitle", elements: [.init(propertyName: "title")], partialIndexPredicate: indexFormat)
            ])
        return ManagedObjectModel(
            entities: [post],
            fetchRequestTemplates: [
                FetchRequestTemplate(name: "byTitle", entityName: "Post", predicateFormat: templateFormat)
            ])
    }

    @Test func validPredicatesRaiseNoIssue() {
        let valid = model(
            templateFormat: "title == $TITLE", fetchedFormat: "title == $FETCH_SOURCE.title",
            indexFormat: "title != nil")
        #expect(valid.validationIssues().isEmpty)
        #expect(model(templateFormat: nil, fetchedFormat: nil, indexFormat: nil).validationIssues().isEmpty)
    }

    @Test func everyUnparsablePredicateIsAnIssueNamingItsOwner() {
        let issues = model(templateFormat: "title ==", fetchedFormat: "(title == 'a'", indexFormat: "title === nil")
            .validationIssues()
        #expect(issues.map(\.kind) == [.invalidPredicate, .invalidPredicate, .invalidPredicate])
        #expect(issues.map(\.entityName) == ["Post", "Post", "Post"])
        #expect(issues.map(\.propertyName) == ["byTitle", "related", "byTitle"])
        #expect(issues[0].message.hasPrefix("Fetch request template 'byTitle' has an invalid predicate. Syntax error"))
        #expect(issues[1].message.hasPrefix("Fetched property 'Post.related' has an invalid predicate. Syntax error"))
        #expect(issues[1].message.contains("expected ')' at offset 13"))
        #expect(issues[2].message.hasPrefix("Partial index 'Post.byTitle' has an invalid predicate. Syntax error"))
    }

    @Test func freezingFailsOnAnInvalidPredicate() {
        let broken = model(templateFormat: "title == %@", fetchedFormat: nil, indexFormat: nil)
        #expect {
            try broken.freeze()
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == .invalidModel && error.issues.map(\.kind) == [.invalidPredicate]
        }
    }
}
