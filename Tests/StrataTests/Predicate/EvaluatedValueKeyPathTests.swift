import Foundation
import Testing

@testable import Strata

@Suite struct EvaluatedValueKeyPathTests: EvaluationTesting {
    private func value(_ path: String) throws(FetchPredicateError) -> EvaluatedValue {
        try EvaluatedValue.object(EvaluationFixtures.book()).value(atKeyPath: path, label: path)
    }

    private func values(_ path: String) throws -> [AttributeValue?] {
        guard case .collection(let elements) = try value(path) else {
            Issue.record("\(path) is not a collection")
            return []
        }
        return elements.map(\.scalar)
    }

    @Test func attributesResolveToTheirValues() throws {
        #expect(try value("title").scalar == .string("Dune"))
        #expect(try value("pages").scalar == .integer16(412))
        #expect(try value("subtitle").scalar == .null)
    }

    @Test func toOneRelationshipsLeadToObjects() throws {
        #expect(try value("author.name").scalar == .string("Frank Herbert"))
        #expect(try value("author.agent.name").scalar == .string("Ann"))
        #expect(try value("author").scalar == .objectID(EvaluationFixtures.authorID))
    }

    @Test func nullInTheMiddleGivesNull() throws {
        #expect(try value("editor.name").scalar == .null)
        #expect(try value("author.publisher.name").scalar == .null)
        #expect(try value("author.publisher.address.city").scalar == .null)
        #expect(try value("author.publisher.books.@count").scalar == .null)
    }

    @Test func toManyRelationshipsGiveCollections() throws {
        #expect(try values("tags.name") == [.string("scifi"), .string("Classic"), .null])
        #expect(try values("tags") == (1...3).map { .objectID(EvaluationFixtures.tagID($0)) })
        #expect(try values("reviews").isEmpty)
        #expect(try values("reviews.text").isEmpty)
    }

    @Test func nestedToManyRelationshipsAreFlattened() throws {
        let shelf = KeyValueRecord(["books": .objects([EvaluationFixtures.book(), EvaluationFixtures.book()])])
        let names = try EvaluatedValue.object(shelf).value(atKeyPath: "books.tags.name", label: "books.tags.name")
        guard case .collection(let elements) = names else {
            Issue.record("not a collection")
            return
        }
        #expect(elements.count == 6)
        #expect(elements.compactMap(\.scalar).filter { $0 == .string("scifi") }.count == 2)
        let authors = try EvaluatedValue.object(shelf).value(atKeyPath: "books.author.name", label: "")
        guard case .collection(let authorNames) = authors else {
            Issue.record("not a collection")
            return
        }
        #expect(authorNames.map(\.scalar) == [.string("Frank Herbert"), .string("Frank Herbert")])
    }

    @Test func unknownKeyIsAnErrorNamingIt() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try comparison(.keyPath("author.nmae"), .equalTo, constant("x")).evaluate(with: EvaluationFixtures.book())
        }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("'nmae'") == true)
        #expect(error?.message.contains("author.nmae") == true)
    }

    @Test func keyOnAPlainValueIsAnError() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try comparison(.keyPath("title.length"), .equalTo, constant(4)).evaluate(with: EvaluationFixtures.book())
        }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("title.length") == true)
    }

    @Test func keyPathOnAnExpressionStartsThere() throws {
        let book = EvaluationFixtures.book()
        #expect(
            try comparison(.keyPathOn(.evaluatedObject, "author.name"), .equalTo, constant("Frank Herbert")).evaluate(
                with: book))
        let tags = FetchExpression.keyPathOn(.keyPath("tags"), "name")
        #expect(try comparison(tags, .contains, constant("scifi")).evaluate(with: book))
    }
}
