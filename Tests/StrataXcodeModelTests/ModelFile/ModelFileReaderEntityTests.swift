import Strata
import StrataXcodeModel
import Testing

@Suite struct ModelFileReaderEntityTests {
    @Test func entityAttributesMap() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="Base" representedClassName="BaseClass" isAbstract="YES" versionHashModifier="2" \
                elementID="OldBase" syncable="YES" codeGenerationType="class">
                    <userInfo><entry key="owner" value="sync"/></userInfo>
                </entity>
                <entity name="Leaf" representedClassName="NSManagedObject" parentEntity="Base"/>
                """)
        let base = try #require(model.entity(named: "Base"))
        #expect(base.className == "BaseClass" && base.isAbstract && base.superentityName == nil)
        #expect(base.versionHashModifier == "2" && base.renamingIdentifier == "OldBase")
        #expect(base.userInfo == ["owner": "sync"])
        let leaf = try #require(model.entity(named: "Leaf"))
        #expect(leaf.className == "NSManagedObject" && !leaf.isAbstract && leaf.superentityName == "Base")
        #expect(leaf.userInfo.isEmpty && leaf.renamingIdentifier == nil)
    }

    @Test func spotlightSettingsMapToTheSearchIndex() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="Photo" coreSpotlightDisplayNameExpression="title">
                    <attribute name="title" optional="YES" attributeType="String" spotlightIndexingEnabled="YES"/>
                    <attribute name="width" optional="YES" attributeType="Integer 32"/>
                </entity>
                """)
        let photo = try #require(model.entity(named: "Photo"))
        #expect(photo.searchDisplayNameExpression == "title")
        #expect(photo.attributes.map(\.isIndexedForSearch) == [true, false])
    }

    @Test func fetchedPropertiesMap() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="Author">
                    <fetchedProperty name="recent" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Book" \
                predicateString="author == $FETCH_SOURCE"/>
                        <userInfo><entry key="k" value="v"/></userInfo>
                    </fetchedProperty>
                </entity>
                <entity name="Book"/>
                """)
        #expect(
            model.entity(named: "Author")?.fetchedProperties == [
                FetchedPropertyDescription(
                    name: "recent", destinationEntityName: "Book", predicateFormat: "author == $FETCH_SOURCE",
                    userInfo: ["k": "v"])
            ])
    }

    @Test func fetchedPropertyWithoutRequestIsMalformed() throws {
        let error = try #require(
            ModelXML.error(body: "<entity name=\"A\">\n<fetchedProperty name=\"f\"/>\n</entity>"))
        #expect(error.code == .malformedFile && error.line == 4)
        #expect(error.message.contains("<fetchedProperty name=\"f\"> in entity 'A' lacks its <fetchRequest> element"))
    }

    @Test func fetchIndexesMap() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="Place">
                    <attribute name="latitude" attributeType="Double"/>
                    <attribute name="longitude" attributeType="Double"/>
                    <attribute name="name" attributeType="String"/>
                    <fetchIndex name="byName">
                        <fetchIndexElement property="name" type="Binary" order="descending"/>
                    </fetchIndex>
                    <fetchIndex name="byLocation">
                        <fetchIndexElement property="latitude" type="RTree"/>
                        <fetchIndexElement property="longitude" type="R-Tree"/>
                    </fetchIndex>
                    <fetchIndex name="byExpression">
                        <fetchIndexElement expression="name.lowercase" expressionType="String" type="Binary"/>
                    </fetchIndex>
                </entity>
                """)
        #expect(
            model.entities[0].fetchIndexes == [
                FetchIndexDescription(name: "byName", elements: [.init(propertyName: "name", isAscending: false)]),
                FetchIndexDescription(
                    name: "byLocation",
                    elements: [
                        .init(propertyName: "latitude", kind: .rTree), .init(propertyName: "longitude", kind: .rTree),
                    ]),
            ])
        #expect(model.validationIssues().isEmpty)
    }

    @Test(arguments: [
        ("property=\"a\" type=\"Hash\"", "type=\"Hash\"; expected Binary or RTree"),
        ("property=\"a\" type=\"Binary\" order=\"up\"", "order=\"up\"; expected ascending or descending"),
        ("type=\"Binary\"", "neither a property nor an expression"),
        ("property=\"a\"", "required attribute 'type'"),
    ])
    func malformedFetchIndexElements(_ attributes: String, _ reason: String) throws {
        let error = try #require(
            ModelXML.error(
                body:
                    "<entity name=\"A\"><fetchIndex name=\"i\">\n<fetchIndexElement \(attributes)/>\n</fetchIndex></entity>"
            ))
        #expect(error.code == .malformedFile && error.line == 4)
        #expect(error.message.contains("<fetchIndexElement> in entity 'A' "))
        #expect(error.message.contains(reason))
    }

    @Test func uniquenessConstraintsMap() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="Person">
                    <attribute name="first" attributeType="String"/>
                    <attribute name="last" attributeType="String"/>
                    <attribute name="email" attributeType="String"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint><constraint value="email"/></uniquenessConstraint>
                        <uniquenessConstraint><constraint value="first"/><constraint value="last"/></uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                """)
        #expect(model.entities[0].uniquenessConstraints == [["email"], ["first", "last"]])
    }

    @Test func missingEntityNameIsMalformed() throws {
        let error = try #require(ModelXML.error(body: "\n<entity representedClassName=\"X\"/>"))
        #expect(error.code == .malformedFile && error.line == 4)
        #expect(error.message.contains("line 4: <entity> lacks the required attribute 'name'"))
    }

    /// The loader checks syntax only; a reference to a missing entity is reported by
    /// validation, like in a model built in code.
    @Test func danglingReferencesLoadAndFailValidation() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="Car" parentEntity="Vehicle">
                    <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person"/>
                </entity>
                """)
        #expect(model.validationIssues().map(\.kind) == [.unknownSuperentity, .unknownDestination])
        #expect(throws: ModelError.self) { try model.freeze() }
    }
}
