import Strata
import StrataXcodeModel
import Testing

@Suite struct ModelFileReaderRelationshipTests {
    private func relationship(_ attributes: String, body: String = "") throws -> RelationshipDescription {
        let model = try ModelXML.load(
            body:
                "<entity name=\"A\"><relationship name=\"r\" destinationEntity=\"A\" \(attributes)>\(body)</relationship></entity>"
        )
        return model.entities[0].relationships[0]
    }

    @Test func toOneDefaultsMatchCompiledModels() throws {
        let toOne = try relationship("maxCount=\"1\" deletionRule=\"Nullify\"")
        #expect(!toOne.isToMany && toOne.maxCount == 1 && toOne.minCount == 0)
        #expect(!toOne.isOptional && !toOne.isTransient && !toOne.isOrdered)
        #expect(toOne.inverseName == nil && toOne.deleteRule == .nullify)
        #expect(try relationship("").maxCount == 1, "a to-one without maxCount")
    }

    @Test func toManyCountsAndOptions() throws {
        let unbounded = try relationship("optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\"")
        #expect(unbounded.isToMany && unbounded.maxCount == 0 && unbounded.minCount == 0 && unbounded.isOptional)
        let bounded = try relationship(
            "toMany=\"YES\" minCount=\"1\" maxCount=\"10000\" ordered=\"YES\" transient=\"YES\" inverseName=\"r\" inverseEntity=\"A\" elementID=\"old\" versionHashModifier=\"m\"",
            body: "<userInfo><entry key=\"k\" value=\"v\"/></userInfo>")
        #expect(bounded.minCount == 1 && bounded.maxCount == 10000)
        #expect(bounded.isOrdered && bounded.isTransient && bounded.inverseName == "r")
        #expect(bounded.renamingIdentifier == "old" && bounded.versionHashModifier == "m")
        #expect(bounded.userInfo == ["k": "v"])
    }

    @Test(arguments: [
        ("Nullify", RelationshipDescription.DeleteRule.nullify), ("Cascade", .cascade), ("Deny", .deny),
        ("No Action", .noAction),
    ])
    func deletionRulesMap(_ name: String, _ rule: RelationshipDescription.DeleteRule) throws {
        #expect(try relationship("deletionRule=\"\(name)\"").deleteRule == rule)
    }

    @Test(arguments: [
        (
            "destinationEntity=\"A\" deletionRule=\"Restrict\"",
            "deletionRule=\"Restrict\"; expected Nullify, Cascade, Deny or No Action"
        ),
        ("deletionRule=\"Nullify\"", "lacks the required attribute 'destinationEntity'"),
        ("destinationEntity=\"A\" maxCount=\"many\"", "maxCount=\"many\", which is not an integer"),
        ("destinationEntity=\"A\" toMany=\"1\"", "toMany=\"1\"; expected YES or NO"),
    ])
    func malformedRelationshipsNameFileLineAndElement(_ attributes: String, _ reason: String) throws {
        let error = try #require(
            ModelXML.error(body: "<entity name=\"A\">\n<relationship name=\"r\" \(attributes)/>\n</entity>"))
        #expect(error.code == .malformedFile && error.line == 4)
        #expect(error.message.contains("line 4: <relationship name=\"r\"> in entity 'A' "))
        #expect(error.message.contains(reason))
    }
}
