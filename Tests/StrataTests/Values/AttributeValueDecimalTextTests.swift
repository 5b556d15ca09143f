import Foundation
import Testing

@testable import Strata

@Suite struct AttributeValueDecimalTextTests {
    @Test(arguments: [
        ("10.11", "10.11"), ("-12.50", "-12.5"), ("+3", "3"), ("1e-3", "0.001"), (".5", "0.5"), ("7.", "7"),
        ("123456789012345678901234567890.12345", "123456789012345678901234567890.12345"),
    ])
    func readsWholeNumbers(text: String, expected: String) {
        #expect(AttributeValue.parseDecimal(text) == Decimal(string: expected))
    }

    @Test(arguments: ["", "1.5abc", "0x10", "NaN", "nan", "1,5", " 1", "1 ", "--1", "1e", "e5", ".", "inf"])
    func refusesAnythingElse(text: String) {
        #expect(AttributeValue.parseDecimal(text) == nil)
    }

    @Test func jsonRefusesATrailingGarbageDecimal() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AttributeValue.self, from: Data(#"{"decimal":"1.5abc"}"#.utf8))
        }
    }
}
