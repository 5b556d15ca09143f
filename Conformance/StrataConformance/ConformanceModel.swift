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
        case .undefined, .objectID: "unsupported"
        }
    }

    /// The model, built once; a coordinator freezes (validates) it.
    static let model: ManagedObjectModel = {
        ManagedObjectModel {
            Entity(sample) {
                Attribute("serial", .integer64, optional: false)
                for type in sampleTypes where type != .transformable { Attribute(attributeName(for: type), type) }
                Attribute(attributeName(for: .transformable), .transformable).transformed(by: "StrataConformanceJSON")
                Attribute("count", .integer32, default: 42)
                Attribute("label", .string, default: "unnamed")
                Attribute("flag", .boolean, default: true)
            }
            Entity("Person") {
                Attribute("serial", .integer64, optional: false)
                Attribute("name", .string)
                Attribute("age", .integer32)
                Relationship.toOne("team", destination: "Team", inverse: "members")
                Relationship.toOne("manager", destination: "Person", inverse: "reports")
                Relationship.toMany("reports", destination: "Person", inverse: "manager")
                Relationship.toMany("friends", destination: "Person", inverse: "friends")
                Relationship.toOne("passport", destination: "Passport", inverse: "holder", deleteRule: .cascade)
            }
            Entity("Passport") {
                Attribute("number", .string)
                Relationship.toOne("holder", destination: "Person", inverse: "passport")
            }
            Entity("Team") {
                Attribute("serial", .integer64, optional: false)
                Attribute("name", .string)
                Relationship.toMany("members", destination: "Person", inverse: "team", ordered: true)
            }
            Entity("Crew") {
                Attribute("name", .string)
                Relationship.toMany("sailors", destination: "Sailor", inverse: "crew", minCount: 1, maxCount: 3)
            }
            Entity("Sailor") {
                Attribute("name", .string)
                Relationship.toOne("crew", destination: "Crew", inverse: "sailors")
            }
            Entity("Node") {
                Attribute("name", .string)
                Relationship.toMany("children", destination: "Node", inverse: "parent", deleteRule: .cascade)
                Relationship.toOne("parent", destination: "Node", inverse: "children")
            }
            Entity("Ring") {
                Attribute("name", .string)
                Relationship.toOne("next", destination: "Ring", inverse: "previous", deleteRule: .cascade)
                Relationship.toOne("previous", destination: "Ring", inverse: "next", deleteRule: .cascade)
            }
            Entity("Vault") {
                Attribute("name", .string)
                Relationship.toMany("items", destination: "Item", inverse: "vault", deleteRule: .deny)
            }
            Entity("Item") {
                Attribute("name", .string)
                Relationship.toOne("vault", destination: "Vault", inverse: "items")
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship.toMany("labels", destination: "Label", inverse: "tag", deleteRule: .noAction)
            }
            Entity("Label") {
                Attribute("name", .string)
                Relationship.toOne("tag", destination: "Tag", inverse: "labels")
            }
            Entity("Shape", abstract: true) {
                Attribute("serial", .integer64, optional: false)
                Attribute("name", .string)
                Attribute("area", .double)
            }
            Entity("Polygon", parent: "Shape") { Attribute("sides", .integer16) }
            Entity("Square", parent: "Polygon") { Attribute("edge", .double) }
            Entity("Circle", parent: "Shape") { Attribute("radius", .double) }
            Configuration(records, entities: [sample])
            Configuration(
                graph,
                entities: [
                    "Person", "Passport", "Team", "Crew", "Sailor", "Node", "Ring", "Vault", "Item", "Tag", "Label",
                    "Shape", "Polygon", "Square", "Circle",
                ])
        }
    }()
}
