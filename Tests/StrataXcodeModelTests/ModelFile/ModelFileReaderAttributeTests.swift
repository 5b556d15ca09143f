import Foundation
import Strata
import StrataXcodeModel
import Testing

@Suite struct ModelFileReaderAttributeTests {
    @Test(arguments: AttributeType.allCases.filter { $0 != .composite })
    func everyAttributeTypeNameMaps(_ type: AttributeType) throws {
        #expect(try ModelXML.attribute("attributeType=\"\(type.modelFileName)\"").type == type)
    }

    @Test func absentOptionalMeansRequired() throws {
        #expect(try ModelXML.attribute("attributeType=\"String\"").isOptional == false)
        #expect(try ModelXML.attribute("optional=\"YES\" attributeType=\"String\"").isOptional == true)
        #expect(try ModelXML.attribute("optional=\"NO\" attributeType=\"String\"").isOptional == false)
    }

    @Test(arguments: [
        ("Integer 16", "-5", AttributeValue.integer16(-5)),
        ("Integer 32", "70000", .integer32(70000)),
        ("Integer 64", "9000000000", .integer64(9_000_000_000)),
        ("Decimal", "1.25", .decimal(Decimal(string: "1.25")!)),
        ("Double", "0.5", .double(0.5)),
        ("Float", "2.5", .float(2.5)),
        ("String", "hello", .string("hello")),
        ("String", "", .string("")),
        ("Boolean", "YES", .boolean(true)),
        ("Boolean", "NO", .boolean(false)),
        (
            "UUID", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        ),
        ("URI", "https://example.com/a", .uri(URL(string: "https://example.com/a")!)),
    ])
    func defaultValueStringIsParsedAsTheType(_ type: String, _ text: String, _ expected: AttributeValue) throws {
        let attribute = try ModelXML.attribute("attributeType=\"\(type)\" defaultValueString=\"\(text)\"")
        #expect(attribute.defaultValue == expected)
    }

    @Test func dateDefaultAndBoundsAreSecondsSince2001() throws {
        let attribute = try ModelXML.attribute(
            "attributeType=\"Date\" defaultDateTimeInterval=\"60\" minDateTimeInterval=\"-3600\" maxDateTimeInterval=\"7200.5\""
        )
        #expect(attribute.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 60)))
        #expect(attribute.minValue == .date(Date(timeIntervalSinceReferenceDate: -3600)))
        #expect(attribute.maxValue == .date(Date(timeIntervalSinceReferenceDate: 7200.5)))
    }

    @Test func numericBoundsAreValues() throws {
        let integer = try ModelXML.attribute("attributeType=\"Integer 16\" minValueString=\"-1\" maxValueString=\"10\"")
        #expect(integer.minValue == .integer16(-1) && integer.maxValue == .integer16(10))
        let double = try ModelXML.attribute("attributeType=\"Double\" minValueString=\"0.5\"")
        #expect(double.minValue == .double(0.5) && double.maxValue == nil)
        let decimal = try ModelXML.attribute("attributeType=\"Decimal\" maxValueString=\"99.99\"")
        #expect(decimal.maxValue == .decimal(Decimal(string: "99.99")!))
        #expect(integer.minLength == nil && integer.maxLength == nil)
    }

    @Test(arguments: ["String", "Binary"])
    func stringAndBinaryBoundsAreLengths(_ type: String) throws {
        let attribute = try ModelXML.attribute(
            "attributeType=\"\(type)\" minValueString=\"1\" maxValueString=\"64\"")
        #expect(attribute.minLength == 1 && attribute.maxLength == 64)
        #expect(attribute.minValue == nil && attribute.maxValue == nil)
    }

    @Test func everyOptionMaps() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="E">
                    <attribute name="code" optional="YES" transient="YES" attributeType="String" \
                regularExpressionString="^[A-Z]{3}$" indexed="YES" elementID="oldCode" versionHashModifier="v2">
                        <userInfo><entry key="k" value="v"/><entry key="empty"/></userInfo>
                    </attribute>
                    <attribute name="photo" attributeType="Binary" allowsExternalBinaryDataStorage="YES" \
                preserveAfterDeletion="YES"/>
                    <attribute name="color" attributeType="Transformable" valueTransformerName="ColorTransformer" \
                customClassName="Color"/>
                    <attribute name="count" attributeType="Integer 64" derived="YES" derivationExpression="items.@count"/>
                </entity>
                """)
        let entity = model.entities[0]
        let code = try #require(entity.attribute(named: "code"))
        #expect(code.isOptional && code.isTransient && code.isIndexed)
        #expect(code.regularExpression == "^[A-Z]{3}$")
        #expect(code.renamingIdentifier == "oldCode" && code.versionHashModifier == "v2")
        #expect(code.userInfo == ["k": "v", "empty": ""])
        #expect(!code.allowsExternalBinaryDataStorage && !code.preservesValueInHistoryOnDeletion)
        let photo = try #require(entity.attribute(named: "photo"))
        #expect(photo.allowsExternalBinaryDataStorage && photo.preservesValueInHistoryOnDeletion)
        #expect(!photo.isTransient && !photo.isIndexed && photo.derivationExpression == nil)
        #expect(entity.attribute(named: "color")?.valueTransformerName == "ColorTransformer")
        #expect(entity.attribute(named: "count")?.derivationExpression == "items.@count")
    }

    @Test func derivationExpressionWithoutDerivedIsIgnored() throws {
        let attribute = try ModelXML.attribute("attributeType=\"String\" derivationExpression=\"name.lowercase\"")
        #expect(attribute.derivationExpression == nil)
    }

    @Test(arguments: [
        ("attributeType=\"Integer 16\" defaultValueString=\"abc\"", "defaultValueString=\"abc\""),
        ("attributeType=\"Integer 16\" defaultValueString=\"70000\"", "not a valid Integer 16 value"),
        ("attributeType=\"Decimal\" defaultValueString=\"1.5x\"", "not a valid Decimal value"),
        ("attributeType=\"Decimal\" defaultValueString=\"0x10\"", "not a valid Decimal value"),
        ("attributeType=\"Boolean\" defaultValueString=\"true\"", "not a valid Boolean value"),
        ("attributeType=\"Date\" defaultValueString=\"0\"", "not a valid Date value"),
        ("attributeType=\"Binary\" defaultValueString=\"00\"", "not a valid Binary value"),
        ("attributeType=\"Boolean\" minValueString=\"0\"", "bounds apply only"),
        ("attributeType=\"String\" maxValueString=\"ten\"", "not a length"),
        ("attributeType=\"String\" defaultDateTimeInterval=\"0\"", "applies only to Date"),
        ("attributeType=\"Date\" minDateTimeInterval=\"soon\"", "not a number of seconds"),
        ("attributeType=\"String\" optional=\"yes\"", "expected YES or NO"),
        ("attributeType=\"String\" derived=\"YES\"", "required attribute 'derivationExpression'"),
        ("attributeType=\"Integer 128\"", "attributeType \"Integer 128\", which is not one of"),
        ("optional=\"YES\"", "required attribute 'attributeType'"),
    ])
    func malformedAttributesNameFileLineAndElement(_ attributes: String, _ reason: String) throws {
        let directory = try TemporaryDirectory()
        let text = ModelXML.file("<entity name=\"E\">\n<attribute name=\"a\" \(attributes)/>\n</entity>")
        let error = try #require(ModelXML.error(text, in: directory))
        let path = directory.url.appendingPathComponent("Test.xcdatamodel/contents").path
        #expect(error.code == .malformedFile)
        #expect(error.filePath == path && error.line == 4)
        #expect(error.message.hasPrefix("'\(path)', line 4: <attribute name=\"a\"> in entity 'E' "))
        #expect(error.message.contains(reason))
    }
}
