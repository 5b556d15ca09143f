import Foundation
import Testing

@testable import Strata

@Suite struct AttributeValueConversionTests {
    @Test func numbersConvertWhenTheyFit() {
        #expect(AttributeValue.integer16(7).converted(to: .integer64) == .integer64(7))
        #expect(AttributeValue.integer64(70_000).converted(to: .integer16) == nil)
        #expect(AttributeValue.double(2).converted(to: .integer32) == .integer32(2))
        #expect(AttributeValue.double(2.5).converted(to: .integer32) == nil)
        #expect(AttributeValue.integer32(3).converted(to: .decimal) == .decimal(3))
        #expect(AttributeValue.boolean(true).converted(to: .integer16) == .integer16(1))
        #expect(AttributeValue.integer64(0).converted(to: .boolean) == .boolean(false))
        #expect(AttributeValue.integer64(2).converted(to: .boolean) == nil)
    }

    @Test func numbersAndIdentifiersBecomeStrings() throws {
        #expect(AttributeValue.integer32(42).converted(to: .string) == .string("42"))
        #expect(AttributeValue.double(1.5).converted(to: .string) == .string("1.5"))
        let id = UUID()
        #expect(AttributeValue.uuid(id).converted(to: .string) == .string(id.uuidString))
        let url = try #require(URL(string: "https://example.com/a"))
        #expect(AttributeValue.uri(url).converted(to: .string) == .string("https://example.com/a"))
        #expect(AttributeValue.string("42").converted(to: .integer32) == nil)
        #expect(AttributeValue.null.converted(to: .date) == .null)
    }

    @Test func convertibleTypesAreTheOnesInferenceAccepts() {
        #expect(AttributeType.integer64.canConvert(from: .integer16))
        #expect(AttributeType.string.canConvert(from: .uuid))
        #expect(AttributeType.transformable.canConvert(from: .binary))
        #expect(!AttributeType.string.canConvert(from: .boolean))
        #expect(!AttributeType.date.canConvert(from: .string))
        #expect(!AttributeType.integer16.canConvert(from: .string))
    }
}
