import Foundation
import Strata

/// The entities of the XML stores Xcode writes for mapping models (`xcmapping.xml`), written
/// out from what the fixtures hold: a mapping model owns entity mappings, which own attribute
/// and relationship mappings (both property mappings).
enum XcodeMappingModel {
    static let model = ManagedObjectModel {
        EntityDescription("XDDevMappingModel") {
            AttributeDescription("sourceModelData", .binary)
            AttributeDescription("destinationModelData", .binary)
            AttributeDescription("sourceModelPath", .string)
            AttributeDescription("destinationModelPath", .string)
            RelationshipDescription.toMany("entityMappings", destination: "XDDevEntityMapping", inverse: "mappingModel")
        }
        EntityDescription("XDDevEntityMapping") {
            AttributeDescription("autogenerateExpression", .boolean)
            AttributeDescription("mappingNumber", .integer16)
            for name in ["destinationName", "mappingTypeName", "migrationPolicyClassName", "sourceName"] {
                AttributeDescription(name, .string)
            }
            RelationshipDescription.toOne("mappingModel", destination: "XDDevMappingModel", inverse: "entityMappings")
            RelationshipDescription.toMany(
                "attributeMappings", destination: "XDDevAttributeMapping", inverse: "entityMapping")
            RelationshipDescription.toMany(
                "relationshipMappings", destination: "XDDevRelationshipMapping", inverse: "entityMapping")
        }
        EntityDescription("XDDevPropertyMapping", abstract: true) {
            AttributeDescription("name", .string)
            AttributeDescription("autogenerateExpression", .boolean)
            AttributeDescription("valueExpressionData", .binary)
        }
        EntityDescription("XDDevAttributeMapping", parent: "XDDevPropertyMapping") {
            RelationshipDescription.toOne(
                "entityMapping", destination: "XDDevEntityMapping", inverse: "attributeMappings")
        }
        EntityDescription("XDDevRelationshipMapping", parent: "XDDevPropertyMapping") {
            AttributeDescription("sourceKeyPath", .string)
            AttributeDescription("sourceMappingName", .string)
            RelationshipDescription.toOne(
                "entityMapping", destination: "XDDevEntityMapping", inverse: "relationshipMappings")
        }
    }

    /// One `xcmapping.xml` fixture and what it holds.
    struct Fixture: Sendable, CustomStringConvertible {
        /// The path below `Tests/Fixtures/coredata`.
        var path: String
        /// How many objects of each entity it holds.
        var counts: [String: Int]

        var description: String { path.components(separatedBy: "/").first ?? path }

        /// A copy of the fixture in `folder`, to open without touching the original.
        func copy(into folder: URL) throws -> URL {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/coredata").appendingPathComponent(path)
            let copy = folder.appendingPathComponent("xcmapping.xml")
            try FileManager.default.copyItem(at: source, to: copy)
            return copy
        }
    }

    /// Every `xcmapping.xml` in the fixtures, from 2009 to 2021, with how many attribute,
    /// entity and relationship mappings each holds.
    static let fixtures = [
        ("fruitsamples-MigrationV2/Models/MappingModel", 8, 4, 6),
        (wibosco + "Migration1to2", 3, 1, 0),
        (wibosco + "Migration2to3", 4, 2, 2),
        ("wibosco-CoreDataMigrationRevised-Example/" + migrations + "Migration2to3ModelMapping", 6, 2, 2),
        ("alemar11-CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3", 14, 5, 12),
    ].map { path, attribute, entity, relationship in
        Fixture(
            path: path + ".xcmappingmodel/xcmapping.xml",
            counts: counts(attribute: attribute, entity: entity, relationship: relationship))
    }

    private static let migrations = "CoreDataMigration-Example/CoreData/Migration/Mappings/"
    private static let wibosco = "wibosco-CoreDataMigration-Example/" + migrations

    private static func counts(attribute: Int, entity: Int, relationship: Int) -> [String: Int] {
        [
            "XDDevMappingModel": 1, "XDDevEntityMapping": entity, "XDDevAttributeMapping": attribute,
            "XDDevRelationshipMapping": relationship,
        ]
    }
}
