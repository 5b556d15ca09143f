import Foundation
import Testing

@testable import Strata

@Suite struct FetchPredicateVariablesTests {
    @Test func variableNamesListsFreeVariablesOnly() throws {
        let predicate = try FetchPredicate(
            format: "author.name == $NAME AND SUBQUERY(items, $x, $x.price > $MIN AND $x.tag IN {$TAG}).@count > 0"
                + " OR lowercase($FETCH_SOURCE.title) == $x")
        #expect(predicate.variableNames == ["NAME", "MIN", "TAG", "FETCH_SOURCE", "x"])
        #expect(try FetchPredicate(format: "a == 1").variableNames.isEmpty)
    }

    @Test func substitutingReplacesVariablesWithConstants() throws {
        let predicate = try FetchPredicate(format: "author.name == $NAME AND year BETWEEN {$FROM, $TO}")
        let result = try predicate.substituting([
            "NAME": .string("Ada"), "FROM": .integer64(1840), "TO": .integer16(1850), "UNUSED": .null,
        ])
        #expect(
            result == (try FetchPredicate(format: "author.name == 'Ada' AND year BETWEEN {1840, CAST(1850, 'Int16')}")))
        #expect(result.variableNames.isEmpty)
    }

    @Test func keyPathsOnVariablesBecomeKeyPathsOnConstants() throws {
        let id = ObjectID(storeIdentifier: "S", entityName: "Author", reference: .integer(1))
        let result = try FetchPredicate(format: "author == $FETCH_SOURCE AND $FETCH_SOURCE.age > 3")
            .substituting(["FETCH_SOURCE": .objectID(id)])
        #expect(
            result
                == .and([
                    compare(key("author"), .equalTo, value(.objectID(id))),
                    compare(.keyPathOn(value(.objectID(id)), "age"), .greaterThan, value(.integer64(3))),
                ]))
        #expect(try FetchPredicate(format: result.description) == result)
    }

    @Test func subqueryVariablesAreLeftAlone() throws {
        let predicate = try FetchPredicate(format: "SUBQUERY(items, $x, $x.price > $x).@count > 0 AND $x == 1")
        let result = try predicate.substituting(["x": .integer64(5)])
        #expect(result == (try FetchPredicate(format: "SUBQUERY(items, $x, $x.price > $x).@count > 0 AND 5 == 1")))
        let collection = try FetchPredicate(format: "SUBQUERY($x.items, $x, $x.ok == YES).@count > 0")
            .substituting(["x": .string("outer")])
        #expect(collection == (try FetchPredicate(format: "SUBQUERY('outer'.items, $x, $x.ok == YES).@count > 0")))
    }

    @Test func variablesInsideEveryKindOfExpressionAreReplaced() throws {
        let predicate = try FetchPredicate(
            format: "NOT ($A IN {$B, lowercase($C)} OR ANY $D.tags == $E) AND TRUEPREDICATE")
        let values: [String: AttributeValue] = [
            "A": .integer64(1), "B": .integer64(2), "C": .string("c"), "D": .string("d"), "E": .string("e"),
        ]
        let result = try predicate.substituting(values)
        #expect(
            result
                == (try FetchPredicate(
                    format: "NOT (1 IN {2, lowercase('c')} OR ANY 'd'.tags == 'e') AND TRUEPREDICATE")))
    }

    @Test func aMissingVariableIsAnUnknownVariableError() throws {
        let predicate = try FetchPredicate(format: "a == $A AND b == $MISSING")
        do {
            _ = try predicate.substituting(["A": .integer64(1)])
            Issue.record("substituting without $MISSING succeeded")
        } catch {
            #expect(error.code == .unknownVariable)
            #expect(error.message == "No value was given for the variable $MISSING; the values given are for $A.")
        }
        #expect(throws: FetchPredicateError.self) { try predicate.substituting([:]) }
    }
}
