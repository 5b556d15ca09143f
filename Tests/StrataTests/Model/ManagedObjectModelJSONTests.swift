import Foundation
import Testing

@testable import Strata

@Suite struct ManagedObjectModelJSONTests {
    /// A model using every option the JSON form carries.
    private func everything() -> ManagedObjectModel {
        var decimal = AttributeDescription(
            "price", .decimal, default: .decimal(Decimal(string: "10.110000000000000000001")!))
        decimal.minValue = .decimal(0)
        decimal.userInfo = ["unit": "EUR", "precision": "high"]
        var date = AttributeDescription(
            "seen", .date, default: .date(Date(timeIntervalSinceReferenceDate: 526_927_588.94)))
        date.maxValue = .date(Date(timeIntervalSinceReferenceDate: 1e9))
        var derived = AttributeDescription("count", .integer64)
        derived.derivationExpression = "items.@count"
        var entity = EntityDescription("Item", className: "ItemClass") {
            decimal
            date
            derived
            AttributeDescription("ratio", .double, default: .double(.nan))
            AttributeDescription("inf", .float, default: .float(-.infinity))
            AttributeDescription("blob", .binary, default: .binary(Data([0, 1, 254, 255]))).externallyStored()
            AttributeDescription("id", .uuid, default: .uuid(UUID(uuidString: "7E2E4EF6-BEB6-4DF6-8B1A-000000000001")!))
            AttributeDescription("link", .uri, default: .uri(URL(string: "https://example.com/a?b=c")!))
            AttributeDescription("flag", .boolean, default: true)
            AttributeDescription("name", .string, default: "é ß 😀", min: 1, max: 10).matching("^.+$").renamed(
                from: "title")
            AttributeDescription("tags", .transformable).transformed(by: "Tags").preservedAfterDeletion().indexed()
            AttributeDescription("temp", .string, transient: true).versionHashModifier("v2")
            RelationshipDescription.toMany(
                "items", destination: "Item", inverse: "parent", deleteRule: .deny, ordered: true)
            RelationshipDescription.toOne("parent", destination: "Item", inverse: "items").renamed(from: "owner")
            FetchedPropertyDescription(
                name: "siblings", destinationEntityName: "Item", predicateFormat: "parent == $FETCH_SOURCE.parent")
            UniquenessConstraint("name", "id")
            FetchIndexDescription(
                name: "byName", elements: [.init(propertyName: "name", isAscending: false)],
                partialIndexPredicate: "name != nil")
        }
        entity.versionHashModifier = "entity-v2"
        entity.renamingIdentifier = "Thing"
        entity.userInfo = ["k": "v"]
        return ManagedObjectModel(versionIdentifiers: ["1", "b"]) {
            entity
            EntityDescription("Special", parent: "Item", abstract: true)
            ConfigurationDescription("Main", entities: ["Item", "Special"])
            FetchRequestTemplate(name: "named", entityName: "Item", predicateFormat: "name == $NAME")
        }
    }

    @Test func jsonRoundTripIsIdenticalAndKeepsHashes() throws {
        let model = everything()
        try model.freeze()
        let json = model.jsonData()
        let decoded = try ManagedObjectModel(jsonData: json)
        #expect(decoded.entities == model.entities)
        #expect(decoded.configurations == model.configurations)
        #expect(decoded.fetchRequestTemplates == model.fetchRequestTemplates)
        #expect(decoded.versionIdentifiers == model.versionIdentifiers)
        #expect(decoded.jsonData() == json)
        try decoded.freeze()
        #expect(decoded.schema.entityVersionHashes == model.schema.entityVersionHashes)
        let ratio = decoded.entity(named: "Item")?.attribute(named: "ratio")?.defaultValue
        guard case .double(let nan)? = ratio else { throw ModelError(code: .malformedFile, message: "ratio") }
        #expect(nan.isNaN)
    }

    @Test func jsonLeavesDefaultsOutAndSortsKeys() throws {
        let model = ManagedObjectModel { EntityDescription("A") { AttributeDescription("x", .string) } }
        let text = String(decoding: model.jsonData(), as: UTF8.self)
        #expect(text.contains("\"format\" : \"strata.model\""))
        #expect(!text.contains("transient"))
        #expect(!text.contains("configurations"))
        #expect(text.range(of: "\"entities\"")!.lowerBound < text.range(of: "\"format\"")!.lowerBound)
    }

    @Test func malformedJSONNamesTheKeyPath() {
        let json = Data(
            #"{"format":"strata.model","formatVersion":1,"entities":[{"name":"A","attributes":[{"name":"x","type":"Bogus"}]}]}"#
                .utf8)
        #expect {
            try ManagedObjectModel(jsonData: json)
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == .malformedFile && error.message.contains("'Bogus' is not an attribute type")
                && error.message.contains("entities[0].attributes[0].type")
        }
        #expect {
            try ManagedObjectModel(jsonData: Data(#"{"format":"strata.model","formatVersion":1}"#.utf8))
        } throws: { error in
            (error as? ModelError)?.message.contains("missing key 'entities'") == true
        }
        #expect(throws: ModelError.self) { try ManagedObjectModel(jsonData: Data("not json".utf8)) }
    }

    @Test func otherFormatsAndNewerVersionsAreRefused() {
        let other = Data(#"{"format":"something.else","formatVersion":1,"entities":[]}"#.utf8)
        let newer = Data(#"{"format":"strata.model","formatVersion":99,"entities":[]}"#.utf8)
        for data in [other, newer] {
            #expect {
                try ManagedObjectModel(jsonData: data)
            } throws: { error in
                (error as? ModelError)?.code == .unsupportedFormat
            }
        }
    }
}
