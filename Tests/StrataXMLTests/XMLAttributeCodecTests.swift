import Foundation
import Strata
import Testing

@testable import StrataXML

/// Attribute values are written as Core Data writes them where that is exact, and in forms
/// Core Data still reads where its own would lose bits.
@Suite struct XMLAttributeCodecTests {
    private func text(_ value: AttributeValue, declaredType: AttributeType? = nil) -> XMLAttributeText? {
        XMLAttributeCodec.encode(value, declaredType: declaredType)
    }

    @Test(arguments: [
        (AttributeValue.integer16(-7), "int16", "-7"), (.integer64(.max), "int64", "9223372036854775807"),
        (.boolean(true), "bool", "1"), (.string("café"), "string", "café"),
        (.double(-0.0), "double", "-0.0"), (.double(.nan), "double", "nan"), (.double(-.infinity), "double", "-inf"),
        (.float(.pi), "float", "3.1415925"), (.decimal(Decimal(string: "-1234.5678")!), "decimal", "-1234.5678"),
        (.decimal(Decimal(sign: .minus, exponent: -3, significand: 5)), "decimal", "-0.005"),
        (.date(Date(timeIntervalSinceReferenceDate: 754_000_000.000_000_123_4)), "date", "754000000.0000001"),
        (.binary(Data([0, 1, 254, 255])), "binary", "AAH+/w=="),
        (
            .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), "uuid",
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        ),
        (
            .objectID(ObjectID(uriString: "x-strata://E621E1F8-C36C-495A-93FC-0C247A3E6E5F/Book/p3")!), "objectid",
            "x-strata://E621E1F8-C36C-495A-93FC-0C247A3E6E5F/Book/p3"
        ),
    ])
    func valuesAreWrittenAsTextThatReadsBackExactly(_ value: AttributeValue, _ typeName: String, _ expected: String) {
        let encoded = text(value)
        #expect(encoded == XMLAttributeText(typeName: typeName, text: expected))
        let decoded = encoded.flatMap(XMLAttributeCodec.decode)
        #expect(decoded.map { "\($0)" } == "\(value)")
    }

    @Test func aStringXMLCannotHoldIsWrittenInBase64() throws {
        let value = AttributeValue.string("before\u{0}after\u{1B}")
        let encoded = try #require(text(value))
        #expect(encoded.isBase64 && encoded.typeName == "string")
        #expect(XMLAttributeCodec.decode(encoded) == value)
        #expect(text("tab\tline\nreturn\r")?.isBase64 == false)
    }

    @Test func transformableDataKeepsItsTypeName() {
        #expect(text(.binary(Data("{}".utf8)), declaredType: .transformable)?.typeName == "transformable")
        #expect(
            XMLAttributeCodec.decode(XMLAttributeText(typeName: "transformable", text: "e30="))
                == .binary(Data("{}".utf8)))
    }

    @Test func coreDataTextReads() {
        #expect(
            XMLAttributeCodec.decode(XMLAttributeText(typeName: "binary", text: "\n\t\tAAH+\n/w==\n\t\t"))
                == .binary(Data([0, 1, 254, 255])))
        #expect(
            XMLAttributeCodec.decode(XMLAttributeText(typeName: "date", text: "599443200.50000000000000000000"))
                == .date(Date(timeIntervalSinceReferenceDate: 599_443_200.5)))
        #expect(XMLAttributeCodec.decode(XMLAttributeText(typeName: "decimal", text: "1.5e3")) == .decimal(1500))
        #expect(XMLAttributeCodec.decode(XMLAttributeText(typeName: "decimal", text: "1.5abc")) == nil)
        #expect(XMLAttributeCodec.decode(XMLAttributeText(typeName: "bool", text: "yes")) == nil)
        #expect(XMLAttributeCodec.decode(XMLAttributeText(typeName: "colour", text: "teal")) == nil)
    }
}
