import Foundation
import Strata

/// The entities of the XML stores Xcode writes for mapping models (`xcmapping.xml`), written
/// out from what the fixtures hold: a mapping model owns entity mappings, which own attribute
/// and relationship mappings (both property mappings).
enum XcodeMappingModel {
    static let model = ManagedObjectModel {
        Entity("XDDevMappingModel") {
            Attribute("sourceModelData", .binary)
            Attribute("destinationModelData", .binary)
            Attribute("sourceModelPath", .string)
            Attribute("destinationModelPath", .string)
            Relationship.toMany("entityMappings", destination: "XDDevEntityMapping", inverse: "mappingModel")
        }
        Entity("XDDevEntityMapping") {
            Attribute("autogenerateExpression", .boolean)
            Attribute("destinationName", .string)
            Attribute("mappingNumber", .integer16)
            Attribute("mappingTypeName", .string)
            Attribute("migrationPolicyClassName", .string)
            Attribute("sourceName", .string)
            Relationship.toOne("mappingModel", destination: "XDDevMappingModel", inverse: "entityMappings")
            Relationship.toMany("attributeMappings", destination: "XDDevAttributeMapping", inverse: "entityMapping")
            Relationship.toMany(
                "relationshipMappings", destination: "XDDevRelationshipMapping", inverse: "entityMapping")
        }
        Entity("XDDevPropertyMapping", abstract: true) {
            Attribute("name", .string)
            Attribute("autogenerateExpression", .boolean)
            Attribute("valueExpressionData", .binary)
        }
        Entity("XDDevAttributeMapping", parent: "XDDevPropertyMapping") {
            Relationship.toOne("entityMapping", destination: "XDDevEntityMapping", inverse: "attributeMappings")
        }
        Entity("XDDevRelationshipMapping", parent: "XDDevPropertyMapping") {
            Attribute("sourceKeyPath", .string)
            Attribute("sourceMappingName", .string)
            Relationship.toOne("entityMapping", destination: "XDDevEntityMapping", inverse: "relationshipMappings")
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

    /// Every `xcmapping.xml` in the fixtures, from 2009 to 2021.
    static let fixtures = [
        Fixture(
            path: "fruitsamples-MigrationV2/Models/MappingModel.xcmappingmodel/xcmapping.xml",
            counts: counts(attribute: 8, entity: 4, relationship: 6)),
        Fixture(
            path: "wibosco-CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Migration/Mappings/"
                + "Migration1to2.xcmappingmodel/xcmapping.xml",
            counts: counts(attribute: 3, entity: 1, relationship: 0)),
        Fixture(
            path: "wibosco-CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Migration/Mappings/"
                + "Migration2to3.xcmappingmodel/xcmapping.xml",
            counts: counts(attribute: 4, entity: 2, relationship: 2)),
        Fixture(
            path: "wibosco-CoreDataMigrationRevised-Example/CoreDataMigration-Example/CoreData/Migration/Mappings/"
                + "Migration2to3ModelMapping.xcmappingmodel/xcmapping.xml",
            counts: counts(attribute: 6, entity: 2, relationship: 2)),
        Fixture(
            path: "alemar11-CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3.xcmappingmodel/xcmapping.xml",
            counts: counts(attribute: 14, entity: 5, relationship: 12)),
    ]

    private static func counts(attribute: Int, entity: Int, relationship: Int) -> [String: Int] {
        [
            "XDDevMappingModel": 1, "XDDevEntityMapping": entity, "XDDevAttributeMapping": attribute,
            "XDDevRelationshipMapping": relationship,
        ]
    }
}
