import Foundation
import Strata
import StrataXcodeModel
import Testing

/// `Composite` attributes take their elements from the model-level `<composite>` they name.
@Suite struct ModelFileReaderCompositeTests {
    @Test func aCompositeCopiesItsElementsIntoEachEntity() throws {
        let model = try ModelXML.load(
            body: """
                <entity name="Shop"><attribute name="address" optional="YES" attributeType="Composite" composite="Address"/></entity>
                <entity name="Home"><attribute name="where" attributeType="Composite" composite="Address"/></entity>
                <composite name="Address">
                    <attribute name="city" attributeType="String"/>
                    <attribute name="geo" optional="YES" attributeType="Composite" composite="Position"/>
                </composite>
                <composite name="Position">
                    <attribute name="latitude" optional="YES" attributeType="Double" defaultValueString="0.0"/>
                </composite>
                """)
        let shop = try #require(model.entity(named: "Shop")?.attribute(named: "address"))
        #expect(shop.type == .composite && shop.isOptional)
        #expect(shop.elements.map(\.name) == ["city", "geo"])
        #expect(shop.elements[0].isOptional == false)
        #expect(shop.elements[1].elements == [AttributeDescription("latitude", .double, default: .double(0))])
        let home = try #require(model.entity(named: "Home")?.attribute(named: "where"))
        #expect(home.elements == shop.elements && !home.isOptional)
        try model.freeze()
        #expect(model.schema.entitiesByName["Home"]?.attributes.map(\.name) == ["where.city", "where.geo.latitude"])
    }

    @Test func aMissingCompositeIsNamed() {
        let error = ModelXML.error(
            body:
                "<entity name=\"Shop\"><attribute name=\"address\" attributeType=\"Composite\" composite=\"Address\"/></entity>"
        )
        #expect(error?.code == .malformedFile)
        #expect(error?.message.contains("names the composite 'Address', which the model does not declare") == true)
        let unnamed = ModelXML.error(
            body: "<entity name=\"Shop\"><attribute name=\"address\" attributeType=\"Composite\"/></entity>")
        #expect(unnamed?.message.contains("lacks the required attribute 'composite'") == true)
    }

    @Test func aCompositeContainingItselfIsRefused() {
        let error = ModelXML.error(
            body: """
                <entity name="Shop"><attribute name="address" attributeType="Composite" composite="A"/></entity>
                <composite name="A"><attribute name="b" attributeType="Composite" composite="B"/></composite>
                <composite name="B"><attribute name="a" attributeType="Composite" composite="A"/></composite>
                """)
        #expect(error?.code == .malformedFile)
        #expect(error?.message.contains("A → B → A") == true)
    }

    @Test func aRepeatedCompositeNameIsRefused() {
        let error = ModelXML.error(
            body: """
                <composite name="A"><attribute name="x" attributeType="String"/></composite>
                <composite name="A"><attribute name="y" attributeType="String"/></composite>
                """)
        #expect(error?.message.contains("repeats the composite name 'A'") == true)
    }
}
