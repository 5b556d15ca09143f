import Testing

@testable import Strata

@Suite struct FetchExpressionFormatTests {
    private let order = KeyValueRecord(["price": .value(.double(2.5)), "quantity": .value(.integer32(4))])

    @Test func anExpressionParsesAndEvaluatesOnAnObject() throws {
        #expect(try FetchExpression(format: "price * quantity").value(with: order) == .double(10))
        #expect(try FetchExpression(format: "quantity + %@", 3).value(with: order) == .integer64(7))
        #expect(try FetchExpression(format: "'fixed'").value(with: order) == .string("fixed"))
        #expect(try FetchExpression(format: "sqrt:(16)").value(with: order) == .double(4))
    }

    @Test func trailingTextAndUnusedArgumentsAreSyntaxAndArgumentErrors() {
        let trailing = #expect(throws: FetchPredicateError.self) { try FetchExpression(format: "price * 2 quantity") }
        #expect(trailing?.code == .syntax)
        #expect(trailing?.offset == 10)
        let unused = #expect(throws: FetchPredicateError.self) { try FetchExpression(format: "price", 1) }
        #expect(unused?.code == .argument)
    }

    @Test func aCollectionIsNotOneValue() {
        let record = KeyValueRecord(["tags": .value(.string("x"))])
        let error = #expect(throws: FetchPredicateError.self) {
            try FetchExpression.aggregate([.constant(1), .constant(2)]).value(with: record)
        }
        #expect(error?.code == .evaluation)
    }
}
