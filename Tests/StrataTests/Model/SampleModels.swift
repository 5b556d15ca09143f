import Foundation
import Strata

/// Models shared by the model tests.
enum SampleModels {
    /// A garage: an abstract vehicle with a car sub-entity, owned by people.
    static func garage() -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifiers: ["2"]) {
            Entity("Vehicle", abstract: true) {
                Attribute("numberPlate", .string, optional: false, min: 1, max: 12)
                Attribute("built", .date)
                Unique("numberPlate")
            }
            Entity("Car", parent: "Vehicle") {
                Attribute("seats", .integer16, default: 4, min: 1, max: 9)
                Attribute("price", .decimal)
                Relationship.toOne("owner", destination: "Person", inverse: "cars")
                FetchIndex(name: "bySeats", elements: [.init(propertyName: "seats")])
            }
            Entity("Person") {
                Attribute("name", .string).matching("[A-Za-z ]+")
                Attribute("id", .uuid, optional: false)
                Attribute("homepage", .uri)
                Attribute("photo", .binary).externallyStored()
                Attribute("score", .double, default: 0.5)
                Attribute("weight", .float)
                Attribute("visits", .integer64, default: 0)
                Attribute("level", .integer32)
                Attribute("active", .boolean, default: .boolean(true))
                Attribute("mood", .string, transient: true)
                Relationship.toMany("cars", destination: "Car", inverse: "owner", deleteRule: .cascade)
                FetchedProperty(name: "bigCars", destinationEntityName: "Car", predicateFormat: "seats > 5")
            }
            Configuration("Garage", entities: ["Vehicle", "Car", "Person"])
            FetchRequestTemplate(name: "byName", entityName: "Person", predicateFormat: "name == $NAME")
        }
    }
}
