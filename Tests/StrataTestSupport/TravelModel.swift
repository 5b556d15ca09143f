import Strata

/// A model with every kind of relationship, for tests that move or print whole object graphs:
/// countries list their cities in order (ordered to-many, inverse to-one) and cities name their
/// twin cities (many-to-many).
public enum TravelModel {
    /// `Country` (name, required; ordered `cities`) and `City` (name, population, `country`, `twins`).
    public static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Country") {
                Attribute("name", .string, optional: false)
                Relationship.toMany("cities", destination: "City", inverse: "country", ordered: true)
            }
            Entity("City") {
                Attribute("name", .string)
                Attribute("population", .integer64)
                Relationship.toOne("country", destination: "Country", inverse: "cities")
                Relationship.toMany("twins", destination: "City", inverse: "twins")
            }
        }
    }
}
