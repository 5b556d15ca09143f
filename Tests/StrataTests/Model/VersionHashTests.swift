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

    private func hashes(_ build: () -> ManagedObjectModel) throws -> [String: [UInt8]] {
        let model = build()
        try model.freeze()
        return model.schema.entityVersionHashes
    }

    private func base() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Post") {
                AttributeDescription("title", .string)
                AttributeDescription("date", .date, optional: false)
                RelationshipDescription.toMany("tags", destination: "Tag", inverse: "post")
            }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription.toOne("post", destination: "Post", inverse: "tags")
            }
        }
    }

    @Test func hashesAreDeterministic() throws {
        let first = try hashes(base)
        #expect(first == (try hashes(base)))
        #expect(first.values.allSatisfy { $0.count == 32 })
    }

    /// A hash Apple's Core Data wrote for `Post{color: String?, date: Date?, postID: String?}`
    /// (fixture `CoreDataMigration_Example_1.sqlite`), pinned here so the core is tested alone.
    @Test func hashEqualsApplesForASimpleEntity() throws {
        let model = ManagedObjectModel {
            EntityDescription("Post") {
                AttributeDescription("color", .string)
                AttributeDescription("date", .date)
                AttributeDescription("postID", .string)
            }
        }
        try model.freeze()
        let hash = try #require(model.schema.entitiesByName["Post"]?.versionHash)
        #expect(Data(hash).base64EncodedString() == ApplesHashes.wiboscoV1Post)
    }

    @Test func hashesIgnoreWhatIsNotPersisted() throws {
        let reference = try hashes(base)
        let variants: [(String, (ManagedObjectModel) -> Void)] = [
            (
                "transient attribute",
                { $0.entities[0].attributes.append(AttributeDescription("draft", .string, transient: true)) }
            ),
            (
                "fetch index",
                {
                    $0.entities[0].fetchIndexes = [
                        FetchIndexDescription(name: "i", elements: [.init(propertyName: "title")])
                    ]
                }
            ),
            ("default value", { $0.entities[0].attributes[0].defaultValue = "x" }),
            (
                "user info",
                {
                    $0.entities[0].userInfo = ["a": "b"]
                    $0.entities[0].attributes[0].userInfo = ["c": "d"]
                }
            ),
            ("renaming identifier", { $0.entities[0].attributes[0].renamingIdentifier = "old" }),
            ("validation", { $0.entities[0].attributes[0].maxLength = 3 }),
            ("class name", { $0.entities[0].className = "PostClass" }),
            (
                "fetched property",
                {
                    $0.entities[0].fetchedProperties = [
                        FetchedPropertyDescription(name: "f", destinationEntityName: "Tag")
                    ]
                }
            ),
            ("delete rule", { $0.entities[0].relationships[0].deleteRule = .cascade }),
        ]
        for (label, change) in variants {
            let model = base()
            change(model)
            try model.freeze()
            #expect(model.schema.entityVersionHashes == reference, "\(label) changed a hash")
        }
    }

    @Test func hashesChangeWithPersistedStructure() throws {
        let reference = try hashes(base)
        let variants: [(String, String, (ManagedObjectModel) -> Void)] = [
            ("Post", "attribute name", { $0.entities[0].attributes[0].name = "heading" }),
            ("Post", "attribute type", { $0.entities[0].attributes[0].type = .uri }),
            ("Post", "optionality", { $0.entities[0].attributes[0].isOptional = false }),
            ("Post", "new attribute", { $0.entities[0].attributes.append(AttributeDescription("body", .string)) }),
            (
                "Post", "preserve after deletion",
                { $0.entities[0].attributes[0].preservesValueInHistoryOnDeletion = true }
            ),
            (
                "Post", "external binary storage",
                { $0.entities[0].attributes[0].allowsExternalBinaryDataStorage = true }
            ),
            ("Post", "attribute modifier", { $0.entities[0].attributes[0].versionHashModifier = "2" }),
            ("Post", "entity modifier", { $0.entities[0].versionHashModifier = "2" }),
            ("Post", "abstract", { $0.entities[0].isAbstract = true }),
            ("Post", "max count", { $0.entities[0].relationships[0].maxCount = 5 }),
            ("Post", "ordered", { $0.entities[0].relationships[0].isOrdered = true }),
            ("Post", "uniqueness", { $0.entities[0].uniquenessConstraints = [["title"]] }),
            (
                "Tag", "destination",
                {
                    $0.entities[1].relationships[0].inverseName = nil
                    $0.entities[0].relationships[0].inverseName = nil
                    $0.entities[1].relationships[0].destinationEntityName = "Tag"
                }
            ),
        ]
        for (entity, label, change) in variants {
            let model = base()
            change(model)
            try model.freeze()
            #expect(model.schema.entityVersionHashes[entity] != reference[entity], "\(label) did not change \(entity)")
        }
    }

    /// Core Data's attribute hash (`-[NSAttributeDescription _versionHash:inStyle:]`) adds one byte
    /// 1 after the type code when the attribute allows external storage, before the byte of
    /// preserve-after-deletion; no fixture has such an attribute.
    @Test func externalStorageAddsOneByteBeforePreserveAfterDeletion() {
        var attribute = AttributeDescription("scan", .binary)
        attribute.allowsExternalBinaryDataStorage = true
        attribute.preservesValueInHistoryOnDeletion = true
        let property = SHA2.sha256(Array("scan".utf8) + [1, 0])
        #expect(VersionHash.attribute(attribute) == SHA2.sha256(property + [232, 3, 0, 0, 1, 1]))
    }

    @Test func subentityHashCoversItsSuperentity() throws {
        func model(parentAttribute: String) -> ManagedObjectModel {
            ManagedObjectModel {
                EntityDescription("Base") { AttributeDescription(parentAttribute, .string) }
                EntityDescription("Sub", parent: "Base")
            }
        }
        let a = model(parentAttribute: "x")
        let b = model(parentAttribute: "y")
        try a.freeze()
        try b.freeze()
        #expect(a.schema.entityVersionHashes["Sub"] != b.schema.entityVersionHashes["Sub"])
    }
}

/// Hashes copied from the metadata of Apple-made fixture stores (base64 of 32 bytes).
enum ApplesHashes {
    static let wiboscoV1Post = "ufHRtDRG8a0RjKSgPiJuBfmMiZyYtSTBPwL2UU3tXoA="
}
