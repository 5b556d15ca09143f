import Strata

/// The model every check works with: one entity per attribute family, a relationship graph
/// with every delete rule, an inheritance tree three levels deep, and two configurations.
enum ConformanceModel {
    /// The configuration holding ``sample``.
    static let records = "Records"
    /// The configuration holding every other entity.
    static let graph = "Graph"

    /// The entity with one attribute of every type, named after the type.
    static let sample = "Sample"

    /// The attribute types a `Sample` carries, each in the attribute named `rawName(type)`.
    static let sampleTypes: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binary, .uuid,
        .uri, .transformable,
    ]

    /// The name of the `Sample` attribute of `type`.
    static func attributeName(for type: AttributeType) -> String {
        switch type {
        case .integer16: "int16"
        case .integer32: "int32"
        case .integer64: "int64"
        case .decimal: "decimal"
        case .double: "double"
        case .float: "float"
        case .string: "string"
        case .boolean: "boolean"
        case .date: "date"
        case .binary: "binary"
        case .uuid: "uuid"
        case .uri: "uri"
        case .transformable: "transformable"
        case .undefined, .objectID, .composite: "unsupported"
        }
    }

    /// The name of the transformer of `Sample.transformable`, which keeps a ``Swatch`` as JSON.
    static let transformerName = "StrataConformanceJSON"

    /// The transformers every coordinator of the checks is given: ``transformerName``, and Core
    /// Data's keyed-archive transformer every registry holds.
    static var valueTransformers: ValueTransformerRegistry {
        var transformers = ValueTransformerRegistry()
        transformers.register(JSONValueTransformer<Swatch>(), named: transformerName)
        return transformers
    }

    /// The value `Sample.transformable` holds when it is set through its transformer.
    struct Swatch: Codable, Sendable, Hashable {
        var colour: String
        var sizes: [Int]
    }

    /// The model, built once; a coordinator freezes (validates) it.
    static let model: ManagedObjectModel = {
        ManagedObjectModel {
            EntityDescription(sample) {
                AttributeDescription("serial", .integer64, optional: false)
                for type in sampleTypes where type != .transformable {
                    if type == .binary {
                        // Stores keeping large values in files of their own do so for this one.
                        AttributeDescription(attributeName(for: type), type).externallyStored()
                    } else {
                        AttributeDescription(attributeName(for: type), type)
                    }
                }
                AttributeDescription(attributeName(for: .transformable), .transformable).transformed(
                    by: transformerName)
                AttributeDescription("count", .integer32, default: 42)
                AttributeDescription("label", .string, default: "unnamed")
                AttributeDescription("flag", .boolean, default: true)
            }
            EntityDescription("Person") {
                AttributeDescription("serial", .integer64, optional: false)
                AttributeDescription("name", .string)
                AttributeDescription("age", .integer32)
                RelationshipDescription.toOne("team", destination: "Team", inverse: "members")
                RelationshipDescription.toOne("manager", destination: "Person", inverse: "reports")
                RelationshipDescription.toMany("reports", destination: "Person", inverse: "manager")
                RelationshipDescription.toMany("friends", destination: "Person", inverse: "friends")
                RelationshipDescription.toOne(
                    "passport", destination: "Passport", inverse: "holder", deleteRule: .cascade)
            }
            EntityDescription("Passport") {
                AttributeDescription("number", .string).preservedAfterDeletion()
                RelationshipDescription.toOne("holder", destination: "Person", inverse: "passport")
            }
            EntityDescription("Team") {
                AttributeDescription("serial", .integer64, optional: false)
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("members", destination: "Person", inverse: "team", ordered: true)
            }
            EntityDescription("Crew") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany(
                    "sailors", destination: "Sailor", inverse: "crew", minCount: 1, maxCount: 3)
            }
            EntityDescription("Sailor") {
                AttributeDescription("name", .string)
                RelationshipDescription.toOne("crew", destination: "Crew", inverse: "sailors")
            }
            EntityDescription("Node") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("children", destination: "Node", inverse: "parent", deleteRule: .cascade)
                RelationshipDescription.toOne("parent", destination: "Node", inverse: "children")
            }
            EntityDescription("Ring") {
                AttributeDescription("name", .string)
                RelationshipDescription.toOne("next", destination: "Ring", inverse: "previous", deleteRule: .cascade)
                RelationshipDescription.toOne("previous", destination: "Ring", inverse: "next", deleteRule: .cascade)
            }
            EntityDescription("Vault") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("items", destination: "Item", inverse: "vault", deleteRule: .deny)
            }
            EntityDescription("Item") {
                AttributeDescription("name", .string)
                RelationshipDescription.toOne("vault", destination: "Vault", inverse: "items")
            }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("labels", destination: "Label", inverse: "tag", deleteRule: .noAction)
            }
            EntityDescription("Label") {
                AttributeDescription("name", .string)
                RelationshipDescription.toOne("tag", destination: "Tag", inverse: "labels")
            }
            EntityDescription("Shape", abstract: true) {
                AttributeDescription("serial", .integer64, optional: false)
                AttributeDescription("name", .string)
                AttributeDescription("area", .double)
            }
            EntityDescription("Polygon", parent: "Shape") { AttributeDescription("sides", .integer16) }
            EntityDescription("Square", parent: "Polygon") { AttributeDescription("edge", .double) }
            EntityDescription("Circle", parent: "Shape") { AttributeDescription("radius", .double) }
            EntityDescription("Member") {
                AttributeDescription("email", .string)
                AttributeDescription("name", .string)
                AttributeDescription("visits", .integer32)
                RelationshipDescription.toMany("badges", destination: "Badge", inverse: "member")
                UniquenessConstraint("email")
            }
            EntityDescription("Badge") {
                AttributeDescription("name", .string)
                RelationshipDescription.toOne("member", destination: "Member", inverse: "badges")
            }
            EntityDescription("Seat") {
                AttributeDescription("row", .integer16)
                AttributeDescription("number", .integer16)
                AttributeDescription("holder", .string)
                UniquenessConstraint("row", "number")
            }
            EntityDescription("Account") {
                AttributeDescription("handle", .string)
                UniquenessConstraint("handle")
            }
            EntityDescription("Admin", parent: "Account") { AttributeDescription("level", .integer16) }
            ConfigurationDescription(records, entities: [sample])
            ConfigurationDescription(
                graph,
                entities: [
                    "Person", "Passport", "Team", "Crew", "Sailor", "Node", "Ring", "Vault", "Item", "Tag", "Label",
                    "Shape", "Polygon", "Square", "Circle", "Member", "Badge", "Seat", "Account", "Admin",
                ])
        }
    }()
}
