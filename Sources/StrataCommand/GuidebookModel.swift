import Strata

/// The demo's model: an atlas of countries, states, counties, cities and points of interest;
/// travel notes of two kinds, visits and tips, under one abstract entity. Three
/// configurations stripe it across three stores: `Atlas`, `Journal` (visits) and `Guide` (tips).
enum GuidebookModel {
    static func make() -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifiers: ["guidebook-1"]) {
            Entity("Country") {
                Attribute("name", .string, optional: false)
                Relationship.toMany("states", destination: "State", inverse: "country", deleteRule: .cascade)
            }
            Entity("State") {
                Attribute("name", .string, optional: false)
                Relationship.toOne("country", destination: "Country", inverse: "states")
                Relationship.toMany("counties", destination: "County", inverse: "state", deleteRule: .cascade)
            }
            Entity("County") {
                Attribute("name", .string, optional: false)
                Relationship.toOne("state", destination: "State", inverse: "counties")
                Relationship.toMany("cities", destination: "City", inverse: "county", deleteRule: .cascade)
            }
            Entity("City") {
                Attribute("name", .string, optional: false)
                Attribute("population", .integer64)
                Relationship.toOne("county", destination: "County", inverse: "cities")
                Relationship.toMany(
                    "pointsOfInterest", destination: "PointOfInterest", inverse: "city", deleteRule: .cascade,
                    ordered: true)
            }
            Entity("PointOfInterest") {
                Attribute("name", .string, optional: false)
                Attribute("category", .string)
                Relationship.toOne("city", destination: "City", inverse: "pointsOfInterest")
            }
            Entity("Note", abstract: true) {
                Attribute("title", .string, optional: false)
                Attribute("cityName", .string)
                Attribute("day", .integer32)
            }
            Entity("Visit", parent: "Note") {
                Attribute("companions", .integer16)
            }
            Entity("Tip", parent: "Note") {
                Attribute("rating", .integer16)
            }
            Configuration("Atlas", entities: ["Country", "State", "County", "City", "PointOfInterest"])
            Configuration("Journal", entities: ["Note", "Visit"])
            Configuration("Guide", entities: ["Note", "Tip"])
        }
    }
}
