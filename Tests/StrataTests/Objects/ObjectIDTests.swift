import Foundation
import Testing

@testable import Strata

@Suite struct ObjectIDTests {
    private static let awkward: [ObjectID] = [
        ObjectID(storeIdentifier: "my store", entityName: "E", reference: .integer(1)),
        ObjectID(storeIdentifier: "50%", entityName: "A/B", reference: .string("a/b?c#d")),
        ObjectID(storeIdentifier: "a#b", entityName: "Ünïcödé 😀", reference: .integer(-7)),
        ObjectID(storeIdentifier: nil, entityName: "Post", reference: .temporary(UUID())),
        ObjectID(storeIdentifier: "7E2E4EF6-BEB6-4DF6-8B1A-000000000001", entityName: "Post", reference: .integer(42)),
    ]

    @Test(arguments: awkward)
    func uriFormsReadBack(id: ObjectID) throws {
        #expect(ObjectID(uriString: id.uriString) == id)
        #expect(ObjectID(uriRepresentation: id.uriRepresentation) == id)
        #expect(id.description == id.uriString)
        let json = try JSONEncoder().encode(AttributeValue.objectID(id))
        #expect(try JSONDecoder().decode(AttributeValue.self, from: json) == .objectID(id))
    }

    @Test(arguments: awkward)
    func objectIDConstantsSurviveAPredicateRoundTrip(id: ObjectID) throws {
        let predicate = FetchPredicate.comparison(
            ComparisonPredicate(.keyPath("x"), .equalTo, .constant(.objectID(id))))
        #expect(try FetchPredicate(format: predicate.description) == predicate)
    }

    @Test func coreDataFormForIntegerReferences() {
        let id = ObjectID(
            storeIdentifier: "31029939-92C0-48F2-988A-A93D5B7CFFDB", entityName: "Post", reference: .integer(3))
        #expect(id.uriString == "x-strata://31029939-92C0-48F2-988A-A93D5B7CFFDB/Post/p3")
        #expect(!id.isTemporary && ObjectID.temporary(entityName: "Post").isTemporary)
    }

    @Test func idsMadeApartFromTheSameNamesAreEqualAndHashAlike() {
        let names = ("7E2E4EF6-BEB6-4DF6-8B1A-000000000001", "Post")
        let first = ObjectID(storeIdentifier: names.0, entityName: names.1, reference: .integer(9))
        let second = ObjectID(
            ObjectID.Namespace(storeIdentifier: String(names.0.reversed().reversed()), entityName: "Po" + "st"),
            reference: .integer(9))
        #expect(first == second && first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
        #expect(first != ObjectID(storeIdentifier: names.0, entityName: names.1, reference: .integer(10)))
        #expect(first != ObjectID(storeIdentifier: names.0, entityName: "Comment", reference: .integer(9)))
        #expect(first != ObjectID(storeIdentifier: nil, entityName: names.1, reference: .integer(9)))
    }

    @Test func changingANameMovesTheIDToThatNamespace() {
        var id = ObjectID(storeIdentifier: "a", entityName: "Post", reference: .integer(1))
        id.storeIdentifier = "b"
        id.entityName = "Comment"
        #expect(id == ObjectID(storeIdentifier: "b", entityName: "Comment", reference: .integer(1)))
        #expect(id.namespace == ObjectID.Namespace(storeIdentifier: "b", entityName: "Comment"))
        #expect(id.storeIdentifier == "b" && id.entityName == "Comment")
    }

    @Test func namespacesForAListShareOnePerNameInOrder() {
        let namespaces = ObjectID.Namespace.namespaces(storeIdentifier: "s", entityNames: ["Post", "Tag", "Post"])
        #expect(namespaces.map(\.entityName) == ["Post", "Tag", "Post"])
        #expect(namespaces[0] == namespaces[2] && namespaces[0] != namespaces[1])
        #expect(namespaces[1] == ObjectID.Namespace(storeIdentifier: "s", entityName: "Tag"))
        #expect(namespaces.allSatisfy { $0.storeIdentifier == "s" })
    }

    @Test func namesReadFromManyURIsStopBeingInternedAtTheLimitAndStillCompareByName() {
        let stores = (0..<(ObjectID.Namespace.internedLimit + 100)).map { _ in UUID().uuidString }
        for store in stores {
            #expect(ObjectID(uriString: "x-strata://\(store)/Post/p1")?.entityName == "Post")
        }
        #expect(ObjectID.Namespace.internedCount <= ObjectID.Namespace.internedLimit)
        let late = ObjectID.Namespace(storeIdentifier: stores[stores.count - 1], entityName: "Post")
        #expect(!late.isInterned)
        let first = ObjectID(storeIdentifier: late.storeIdentifier, entityName: "Post", reference: .integer(7))
        let second = ObjectID(uriString: first.uriString)
        #expect(first == second && first.hashValue == second?.hashValue)
        #expect(first != ObjectID(storeIdentifier: late.storeIdentifier, entityName: "Tag", reference: .integer(7)))
        #expect(first != ObjectID(storeIdentifier: stores[0], entityName: "Post", reference: .integer(7)))
        let kept = ObjectID(storeIdentifier: "kept", entityName: "Post", reference: .integer(1))
        #expect(kept == ObjectID(uriString: kept.uriString))
    }

    @Test func temporaryIDsAreDistinctAndReadBackFromTheirURIs() {
        let ids = (0..<1_000).map { _ in ObjectID.temporary(entityName: "Post") }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(10) {
            #expect(id.isTemporary && id.storeIdentifier == nil && id.entityName == "Post")
            #expect(ObjectID(uriString: id.uriString) == id)
        }
    }

    @Test(arguments: [
        "", "x-strata://", "http://s/E/p1", "x-strata://s/E", "x-strata://s/E/p", "x-strata://s/E/q1",
        "x-strata://s/E/pabc", "x-strata://s/E/tnot-a-uuid", "x-strata://s/E/p1/extra", "x-strata://s//p1",
        "x-strata://%zz/E/p1", "x-strata://s/E/s%",
    ])
    func malformedURIsGiveNil(text: String) {
        #expect(ObjectID(uriString: text) == nil)
    }
}
