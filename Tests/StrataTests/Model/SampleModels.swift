import Foundation
import Strata

/// Models shared by the model tests.
enum SampleModels {
    /// A garage: an abstract vehicle with a car sub-entity, owned by people.
    static func garage() -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifiers: ["2"]) {
            EntityDescription("Vehicle", abstract: true) {
                AttributeDescription("numberPlate", .string, optional: false, min: 1, max: 12)
                AttributeDescription("built", .date)
                UniquenessConstraint("numberPlate")
            }
            EntityDescription("Car", parent: "Vehicle") {
                AttributeDescription("seats", .integer16, default: 4, min: 1, max: 9)
                AttributeDescription("price", .decimal)
                RelationshipDescription.toOne("owner", destination: "Person", inverse: "cars")
                FetchIndexDescription(name: "bySeats", elements: [.init(propertyName: "seats")])
            }
            EntityDescription("Person") {
                AttributeDescription("name", .string).matching("[A-Za-z ]+")
                AttributeDescription("id", .uuid, optional: false)
                AttributeDescription("homepage", .uri)
                AttributeDescription("photo", .binary).externallyStored()
                AttributeDescription("score", .double, default: 0.5)
                AttributeDescription("weight", .float)
                AttributeDescription("visits", .integer64, default: 0)
                AttributeDescription("level", .integer32)
                AttributeDescription("active", .boolean, default: .boolean(true))
                AttributeDescription("mood", .string, transient: true)
                RelationshipDescription.toMany("cars", destination: "Car", inverse: "owner", deleteRule: .cascade)
                FetchedPropertyDescription(name: "bigCars", destinationEntityName: "Car", predicateFormat: "seats > 5")
            }
            ConfigurationDescription("Garage", entities: ["Vehicle", "Car", "Person"])
            FetchRequestTemplate(name: "byName", entityName: "Person", predicateFormat: "name == $NAME")
        }
    }
}
