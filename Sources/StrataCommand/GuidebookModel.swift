import Strata

/// The demo's model: an atlas of countries, states, counties, cities and points of interest;
/// travel notes of two kinds, visits and tips, under one abstract entity. Three
/// configurations stripe it across three stores: `Atlas`, `Journal` (visits) and `Guide` (tips).
enum GuidebookModel {
    static func make() -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifiers: ["guidebook-1"]) {
            EntityDescription("Country") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription.toMany("states", destination: "State", inverse: "country", deleteRule: .cascade)
            }
            EntityDescription("State") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription.toOne("country", destination: "Country", inverse: "states")
                RelationshipDescription.toMany(
                    "counties", destination: "County", inverse: "state", deleteRule: .cascade)
            }
            EntityDescription("County") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription.toOne("state", destination: "State", inverse: "counties")
                RelationshipDescription.toMany("cities", destination: "City", inverse: "county", deleteRule: .cascade)
            }
            EntityDescription("City") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("population", .integer64)
                RelationshipDescription.toOne("county", destination: "County", inverse: "cities")
                RelationshipDescription.toMany(
                    "pointsOfInterest", destination: "PointOfInterest", inverse: "city", deleteRule: .cascade,
                    ordered: true)
            }
            EntityDescription("PointOfInterest") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("category", .string)
                RelationshipDescription.toOne("city", destination: "City", inverse: "pointsOfInterest")
            }
            EntityDescription("Note", abstract: true) {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("cityName", .string)
                AttributeDescription("day", .integer32)
            }
            EntityDescription("Visit", parent: "Note") {
                AttributeDescription("companions", .integer16)
            }
            EntityDescription("Tip", parent: "Note") {
                AttributeDescription("rating", .integer16)
            }
            ConfigurationDescription("Atlas", entities: ["Country", "State", "County", "City", "PointOfInterest"])
            ConfigurationDescription("Journal", entities: ["Note", "Visit"])
            ConfigurationDescription("Guide", entities: ["Note", "Tip"])
        }
    }
}
