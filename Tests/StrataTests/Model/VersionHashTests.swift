import Foundation
import Testing

@testable import Strata

@Suite struct VersionHashTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: [
        ("pages.@count", "count:(pages)"), ("count:(pages)", "count:(pages)"),
        (" book.pages.@count ", "count:(book.pages)"),
        ("legalEntity.name", "legalEntity.name"), ("now()", "now()"), ("@count", "@count"), ("a..@count", "a..@count"),
    ])
    func derivationTextUsesCoreDataCountForm(_ written: String, _ hashed: String) {
        #expect(VersionHash.derivationText(written) == hashed)
    }

    /// CoreDataPlus `Book.pagesCount` (derived from `pages.@count`): the hash is SHA-256 of
    /// `count:(pages)` and ignores the name, the optional flag and the type.
    @Test func derivedAttributeHashIsTheHashOfItsExpression() {
        var pagesCount = AttributeDescription(name: "pagesCount", type: .integer64)
        pagesCount.derivationExpression = "pages.@count"
        #expect(
            hex(VersionHash.attribute(pagesCount)) == "50081597fb1d6648429c1b37f73bc6bf63299d160cd6f0d555919fd143a9296e"
        )
        var renamed = pagesCount
        renamed.name = "count"
        renamed.type = .integer32
        renamed.isOptional = false
        #expect(VersionHash.attribute(renamed) == VersionHash.attribute(pagesCount))
    }
}
