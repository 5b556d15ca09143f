import Foundation
import Testing

@testable import Strata

/// What a model says about the search index: attributes marked for it and each entity's
/// display-name expression, set in code, kept through JSON, checked by validation, and
/// changing no version hash (as Core Data's Spotlight settings change none).
@Suite struct SearchIndexingModelTests {
    static func photos(displayName: String? = "title") -> ManagedObjectModel {
        var photo = EntityDescription("Photo") {
            AttributeDescription("title", .string).indexedForSearch()
            AttributeDescription("caption", .string).indexedForSearch()
            AttributeDescription("width", .integer32)
        }
        if let displayName { photo = photo.displayedInSearch(as: displayName) }
        return ManagedObjectModel { photo }
    }

    @Test func theBuilderMarksAttributesAndNamesTheDisplayExpression() throws {
        let photo = try #require(Self.photos().entity(named: "Photo"))
        #expect(photo.attributes.map(\.isIndexedForSearch) == [true, true, false])
        #expect(photo.searchDisplayNameExpression == "title")
    }

    @Test func jsonKeepsTheMarksAndOlderJSONReadsWithout() throws {
        let model = Self.photos(displayName: "uppercase:(title)")
        let decoded = try ManagedObjectModel(jsonData: model.jsonData())
        let photo = try #require(decoded.entity(named: "Photo"))
        #expect(photo.attributes.map(\.isIndexedForSearch) == [true, true, false])
        #expect(photo.searchDisplayNameExpression == "uppercase:(title)")
        let json = #"""
            {"format": "strata.model", "formatVersion": 1,
             "entities": [{"name": "Tag", "attributes": [{"name": "name", "type": "String"}]}]}
            """#
        let plain = try ManagedObjectModel(jsonData: Data(json.utf8))
        #expect(plain.entity(named: "Tag")?.attributes.first?.isIndexedForSearch == false)
        #expect(plain.entity(named: "Tag")?.searchDisplayNameExpression == nil)
    }

    @Test func theMarksChangeNoVersionHash() throws {
        let marked = Self.photos()
        let plain = ManagedObjectModel {
            EntityDescription("Photo") {
                AttributeDescription("title", .string)
                AttributeDescription("caption", .string)
                AttributeDescription("width", .integer32)
            }
        }
        try marked.freeze()
        try plain.freeze()
        #expect(marked.schema.entityVersionHashes == plain.schema.entityVersionHashes)
    }

    @Test(arguments: [
        ("title ==", "does not parse"),
        ("author.name", "reads 'author', which 'Photo' does not have"),
    ])
    func aBadDisplayExpressionIsRefusedNamingTheEntity(_ expression: String, _ reason: String) {
        let issues = Self.photos(displayName: expression).validationIssues()
        #expect(issues.map(\.kind) == [.invalidSearchIndexing])
        #expect(issues.first?.entityName == "Photo")
        #expect(issues.first?.message.contains(reason) == true, "\(issues)")
    }

    @Test func aDisplayExpressionOverTheEntitysPropertiesIsValid() {
        #expect(Self.photos(displayName: "uppercase:(title)").validationIssues().isEmpty)
        #expect(Self.photos(displayName: nil).validationIssues().isEmpty)
    }
}
