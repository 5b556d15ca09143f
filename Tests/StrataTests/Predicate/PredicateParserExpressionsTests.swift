import Foundation
import Testing

@testable import Strata

@Suite struct PredicateParserExpressionsTests {
    @Test func dottedNamesAreOneKeyPath() {
        expectExpression("author.name", key("author.name"))
        expectExpression("a.b.c.d", key("a.b.c.d"))
        expectExpression("_private.x1", key("_private.x1"))
        expectExpression("café.naïve", key("café.naïve"))
    }

    @Test func collectionOperatorsAreKeyPathComponents() {
        expectParse("items.@count > 2", compare(key("items.@count"), .greaterThan, value(.integer64(2))))
        expectExpression("items.@sum.price", key("items.@sum.price"))
        expectExpression("items.@avg.price", key("items.@avg.price"))
        expectExpression("items.@min.price", key("items.@min.price"))
        expectExpression("items.@max.price", key("items.@max.price"))
    }

    @Test func selfIsTheEvaluatedObject() {
        expectParse("SELF == %@", arguments: ["x"], compare(.evaluatedObject, .equalTo, value(.string("x"))))
        expectParse("self IN %@", arguments: [[1]], compare(.evaluatedObject, .in, .aggregate([value(.integer64(1))])))
        expectExpression("SELF.name", .keyPathOn(.evaluatedObject, "name"))
        expectExpression("SELF.tags.@count", .keyPathOn(.evaluatedObject, "tags.@count"))
    }

    @Test func escapedReservedWordsAreKeys() {
        expectExpression("#in", key("in"))
        expectExpression("#SELF.name", key("SELF.name"))
        expectExpression("order.#in", key("order.in"))
        expectExpression("#name", key("name"))
    }

    @Test func keywordsAreKeysAfterADot() {
        expectExpression("a.in.contains", key("a.in.contains"))
        expectExpression("$x.self", .keyPathOn(.variable("x"), "self"))
    }

    @Test func variablesAndKeyPathsOnThem() {
        expectExpression("$NAME", .variable("NAME"))
        expectExpression("$x.name", .keyPathOn(.variable("x"), "name"))
        expectExpression("$x.items.@count", .keyPathOn(.variable("x"), "items.@count"))
        expectExpression("$FETCH_SOURCE", .variable("FETCH_SOURCE"))
    }

    @Test func nilNullAndBooleans() {
        expectExpression("nil", value(.null))
        expectExpression("NULL", value(.null))
        expectExpression("Nil", value(.null))
        expectExpression("YES", value(.boolean(true)))
        expectExpression("true", value(.boolean(true)))
        expectExpression("NO", value(.boolean(false)))
        expectExpression("FALSE", value(.boolean(false)))
    }

    @Test func integersAreInteger64() {
        expectExpression("42", value(.integer64(42)))
        expectExpression("-42", value(.integer64(-42)))
        expectExpression("- 7", value(.integer64(-7)))
        expectExpression("0", value(.integer64(0)))
        expectExpression("0x1F", value(.integer64(31)))
        expectExpression("0XfF", value(.integer64(255)))
        expectExpression("-0x10", value(.integer64(-16)))
        expectExpression("0o17", value(.integer64(15)))
        expectExpression("0b101", value(.integer64(5)))
        expectExpression("9223372036854775807", value(.integer64(.max)))
        expectExpression("-9223372036854775808", value(.integer64(.min)))
    }

    @Test func numbersWithAFractionOrExponentAreDoubles() {
        expectExpression("3.25", value(.double(3.25)))
        expectExpression("-3.25", value(.double(-3.25)))
        expectExpression("1e3", value(.double(1000)))
        expectExpression("1E+3", value(.double(1000)))
        expectExpression("2.5e-3", value(.double(0.0025)))
        expectExpression("0.1", value(.double(0.1)))
        expectExpression("1e400", value(.double(.infinity)))
    }

    @Test func stringsInEitherQuoteWithEscapes() {
        expectExpression("'single'", value(.string("single")))
        expectExpression("\"double\"", value(.string("double")))
        expectExpression(#"'it\'s'"#, value(.string("it's")))
        expectExpression(#""say \"hi\"""#, value(.string("say \"hi\"")))
        expectExpression(#"'a "b"'"#, value(.string("a \"b\"")))
        expectExpression(#""a 'b'""#, value(.string("a 'b'")))
        expectExpression(#"'back\\slash'"#, value(.string("back\\slash")))
        expectExpression(#"'\n\t\r\0'"#, value(.string("\n\t\r\0")))
        expectExpression(#"'\u00e9\u0041'"#, value(.string("éA")))
        expectExpression(#"'\uD83D\uDE00'"#, value(.string("😀")))
        expectExpression(#"'\d+\.com'"#, value(.string(#"\d+\.com"#)))
        expectExpression("''", value(.string("")))
        expectExpression("'%@ and %K'", value(.string("%@ and %K")))
        expectExpression("'line\nbreak'", value(.string("line\nbreak")))
    }

    @Test func aggregatesHoldExpressions() {
        expectExpression(
            "{1, 2, 'a'}", .aggregate([value(.integer64(1)), value(.integer64(2)), value(.string("a"))]))
        expectExpression("{}", .aggregate([]))
        expectExpression("{{1}, {}}", .aggregate([.aggregate([value(.integer64(1))]), .aggregate([])]))
        expectExpression("{a.b, $x, nil}", .aggregate([key("a.b"), .variable("x"), value(.null)]))
    }

    @Test func functionCalls() {
        expectExpression("now()", .function("now", []))
        expectExpression("lowercase(name)", .function("lowercase", [key("name")]))
        expectExpression("uppercase( x.y )", .function("uppercase", [key("x.y")]))
        expectExpression(
            "add(1, count(items))", .function("add", [value(.integer64(1)), .function("count", [key("items")])]))
        expectExpression("#in(a)", .function("in", [key("a")]))
        expectExpression(
            "now().timeIntervalSinceReferenceDate", .keyPathOn(.function("now", []), "timeIntervalSinceReferenceDate"))
    }

    @Test func subqueries() {
        let inner = compare(.keyPathOn(.variable("x"), "price"), .greaterThan, value(.integer64(10)))
        let subquery = FetchExpression.subquery(collection: key("items"), variable: "x", predicate: inner)
        expectExpression("SUBQUERY(items, $x, $x.price > 10)", subquery)
        expectParse(
            "SUBQUERY(items, $x, $x.price > 10).@count > 0",
            compare(.keyPathOn(subquery, "@count"), .greaterThan, value(.integer64(0))))
        expectParse(
            "subquery(items, $x, $x.price > 10).@count == 0",
            compare(.keyPathOn(subquery, "@count"), .equalTo, value(.integer64(0))))
        let nested = FetchExpression.subquery(
            collection: key("orders"), variable: "o",
            predicate: compare(
                .keyPathOn(
                    .subquery(
                        collection: .keyPathOn(.variable("o"), "lines"), variable: "l",
                        predicate: .and([
                            compare(.keyPathOn(.variable("l"), "qty"), .greaterThan, .variable("MIN")),
                            compare(.keyPathOn(.variable("o"), "open"), .equalTo, value(.boolean(true))),
                        ])), "@count"), .greaterThan, value(.integer64(0))))
        expectExpression(
            "SUBQUERY(orders, $o, SUBQUERY($o.lines, $l, $l.qty > $MIN AND $o.open == YES).@count > 0)", nested)
    }

    @Test func castMakesEveryKindOfConstant() throws {
        expectExpression("CAST(7, 'Int16')", value(.integer16(7)))
        expectExpression("CAST(-7, \"Int32\")", value(.integer32(-7)))
        expectExpression("CAST('12', 'Int64')", value(.integer64(12)))
        expectExpression("CAST('1.25', 'Decimal')", value(.decimal(Decimal(string: "1.25")!)))
        expectExpression("CAST(3, 'Decimal')", value(.decimal(3)))
        expectExpression("CAST('nan', 'Double')", value(.double(.nan)))
        expectExpression("CAST(2, 'Double')", value(.double(2)))
        expectExpression("CAST('1.5', 'Float')", value(.float(1.5)))
        expectExpression("CAST(1.5, 'Float')", value(.float(1.5)))
        expectExpression("CAST(100.5, 'NSDate')", value(.date(Date(timeIntervalSinceReferenceDate: 100.5))))
        expectExpression("CAST(-1, 'Date')", value(.date(Date(timeIntervalSinceReferenceDate: -1))))
        expectExpression("CAST('00ff10', 'Data')", value(.binary(Data([0, 255, 16]))))
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        expectExpression("CAST('e621e1f8-c36c-495a-93fc-0c247a3e6e5f', 'UUID')", value(.uuid(uuid)))
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        expectExpression("CAST('https://example.com/a?b=c', 'URL')", value(.uri(url)))
        let id = ObjectID(storeIdentifier: "S1", entityName: "Post", reference: .integer(12))
        expectExpression("CAST('x-strata://S1/Post/p12', 'ObjectID')", value(.objectID(id)))
        expectExpression("CAST(%@, 'Int16')", arguments: [5], value(.integer16(5)))
    }

    @Test func placeholdersInExpressions() {
        expectExpression("%K", arguments: ["author.name"], key("author.name"))
        expectExpression("%K.@count", arguments: ["items"], key("items.@count"))
        expectExpression("{%@, %d}", arguments: ["a", 2], .aggregate([value(.string("a")), value(.integer64(2))]))
        expectExpression("lowercase(%K)", arguments: ["name"], .function("lowercase", [key("name")]))
    }
}

@Suite struct SelectorFunctionTests {
    @Test func selectorStyleFunctionsParseAndPrintBack() throws {
        let predicate = try FetchPredicate(format: "add:to:(1, count:(items)) == 3")
        guard case .comparison(let comparison) = predicate else {
            Issue.record("not a comparison: \(predicate)")
            return
        }
        #expect(comparison.left == .function("add:to:", [.constant(1), .function("count:", [.keyPath("items")])]))
        #expect(try FetchPredicate(format: predicate.description) == predicate)
        #expect(
            try predicate.evaluate(
                with: KeyValueRecord(["items": .objects([KeyValueRecord([:]), KeyValueRecord([:])])])))
    }

    @Test func selectorWithoutArgumentsIsASyntaxError() {
        #expect {
            try FetchPredicate(format: "count: == 3")
        } throws: { error in
            (error as? FetchPredicateError)?.code == .syntax
                && (error as? FetchPredicateError)?.message.contains("'(' after function name 'count:'") == true
        }
    }

    @Test func decimalNaNRoundTrips() throws {
        let predicate = FetchPredicate.comparison(
            ComparisonPredicate(.keyPath("x"), .equalTo, .constant(.decimal(.nan))))
        let parsed = try FetchPredicate(format: predicate.description)
        #expect(parsed.description == predicate.description)
    }
}
