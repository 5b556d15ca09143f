import Foundation
import Testing

@testable import Strata

@Suite struct PredicateArgumentTests {
    @Test func everyConformingTypeBecomesItsConstant() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12.5)
        let uuid = UUID()
        let url = try #require(URL(string: "https://example.com"))
        let id = ObjectID.temporary(entityName: "Post")
        let cases: [(any PredicateArgument, AttributeValue)] = [
            (AttributeValue.integer16(3), .integer16(3)), (Int(4), .integer64(4)), (Int16(5), .integer16(5)),
            (Int32(6), .integer32(6)), (Int64(7), .integer64(7)), (Double(1.5), .double(1.5)),
            (Float(2.5), .float(2.5)), (Decimal(string: "3.25")!, .decimal(Decimal(string: "3.25")!)),
            ("s", .string("s")), (true, .boolean(true)), (date, .date(date)), (Data([1, 2]), .binary(Data([1, 2]))),
            (uuid, .uuid(uuid)), (url, .uri(url)), (id, .objectID(id)), (Optional<Int>.none, .null),
            (Optional<String>.some("x"), .string("x")),
        ]
        for (argument, expected) in cases {
            let expression = argument.predicateExpression
            #expect(expression == .constant(expected))
            guard case .constant(let constant) = expression else { continue }
            #expect(constant.attributeType == expected.attributeType)
        }
    }

    @Test func collectionsBecomeAggregates() {
        #expect([1, 2].predicateExpression == .aggregate([value(.integer64(1)), value(.integer64(2))]))
        #expect([[1], []].predicateExpression == .aggregate([.aggregate([value(.integer64(1))]), .aggregate([])]))
        #expect([Int?.none, 3].predicateExpression == .aggregate([value(.null), value(.integer64(3))]))
        #expect(Optional([1]).predicateExpression == .aggregate([value(.integer64(1))]))
        guard case .aggregate(let elements) = Set(["a", "b"]).predicateExpression else {
            Issue.record("a set is not an aggregate")
            return
        }
        #expect(Set(elements) == [value(.string("a")), value(.string("b"))])
    }

    @Test func placeholdersTakeArgumentsOfTheirKind() {
        expectParse(
            "a IN %@", arguments: [["x", "y"]],
            compare(key("a"), .in, .aggregate([value(.string("x")), value(.string("y"))])))
        expectParse("a == %@", arguments: [Optional<Date>.none], compare(key("a"), .equalTo, value(.null)))
        for spelling in ["%d", "%i", "%ld", "%lld", "%u"] {
            expectParse("a == \(spelling)", arguments: [Int16(2)], compare(key("a"), .equalTo, value(.integer16(2))))
        }
        for spelling in ["%f", "%lf"] {
            expectParse("a == \(spelling)", arguments: [Float(0.5)], compare(key("a"), .equalTo, value(.float(0.5))))
            expectParse("a == \(spelling)", arguments: [7], compare(key("a"), .equalTo, value(.integer64(7))))
            expectParse(
                "a == \(spelling)", arguments: [Decimal(1)], compare(key("a"), .equalTo, value(.decimal(1))))
        }
        expectParse("%K == 1", arguments: ["in.SELF"], compare(key("in.SELF"), .equalTo, value(.integer64(1))))
        expectParse("%K == 1", arguments: ["a.@count"], compare(key("a.@count"), .equalTo, value(.integer64(1))))
    }
}
