import Foundation
import Testing

@testable import Strata

@Suite struct PredicateLiteralTests {
    @Test func castConvertsNumbersAndStrings() {
        #expect(PredicateLiteral.cast(.string("-12"), to: "Int16") == .integer16(-12))
        #expect(PredicateLiteral.cast(.double(3), to: "Int32") == .integer32(3))
        #expect(PredicateLiteral.cast(.double(3.5), to: "Int64") == nil)
        #expect(PredicateLiteral.cast(.boolean(true), to: "Int64") == nil)
        #expect(PredicateLiteral.cast(.integer64(40_000), to: "Int16") == nil)
        #expect(PredicateLiteral.cast(.string("inf"), to: "Double") == .double(.infinity))
        #expect(PredicateLiteral.cast(.boolean(false), to: "Double") == nil)
        #expect(PredicateLiteral.cast(.double(0.1), to: "Decimal") == .decimal(Decimal(string: "0.1")!))
        #expect(PredicateLiteral.cast(.string("1e3"), to: "Decimal") == .decimal(1000))
        #expect(PredicateLiteral.cast(.string("1.5x"), to: "Decimal") == nil)
        #expect(PredicateLiteral.cast(.double(.nan), to: "Decimal") == nil)
        #expect(PredicateLiteral.cast(.string("1e-3"), to: "Float") == .float(0.001))
        #expect(PredicateLiteral.cast(.integer64(0), to: "NSDate") == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(PredicateLiteral.cast(.string("0F"), to: "Data") == .binary(Data([15])))
        #expect(PredicateLiteral.cast(.string("0g"), to: "Data") == nil)
        #expect(PredicateLiteral.cast(.integer64(1), to: "UUID") == nil)
        #expect(PredicateLiteral.cast(.string("a"), to: "String") == nil)
    }

    @Test func objectIDsReadBackFromCoreDataURIs() {
        let permanent = ObjectID(storeIdentifier: "ABC", entityName: "Post", reference: .integer(-4))
        #expect(PredicateLiteral.cast(.string("x-strata://ABC/Post/p-4"), to: "ObjectID") == .objectID(permanent))
        #expect(
            PredicateLiteral.cast(.string(permanent.uriRepresentation.absoluteString), to: "ObjectID")
                == .objectID(permanent))
        for bad in [
            "x-strata://ABC/Post", "x-strata://ABC/Post/q1", "x-strata://ABC/Post/pX", "x-strata://A/%G1/p1",
        ] {
            #expect(PredicateLiteral.cast(.string(bad), to: "ObjectID") == nil, "\(bad)")
        }
    }

    @Test func quotedEscapesWhatTheLexerReadsSpecially() {
        #expect(PredicateLiteral.quoted("a\"b'c\\") == #""a\"b'c\\""#)
        #expect(PredicateLiteral.quoted("\u{0}\u{1B}\u{9F}\u{A0}") == "\"\\u0000\\u001B\\u009F\u{A0}\"")
    }
}
