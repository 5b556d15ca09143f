import Strata

/// A model with every kind of relationship, for tests that move or print whole object graphs:
/// countries list their cities in order (ordered to-many, inverse to-one) and cities name their
/// twin cities (many-to-many).
public enum TravelModel {
    /// `Country` (name, required; ordered `cities`) and `City` (name, population, `country`, `twins`).
    public static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Country") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription.toMany("cities", destination: "City", inverse: "country", ordered: true)
            }
            EntityDescription("City") {
                AttributeDescription("name", .string)
                AttributeDescription("population", .integer64)
                RelationshipDescription.toOne("country", destination: "Country", inverse: "cities")
                RelationshipDescription.toMany("twins", destination: "City", inverse: "twins")
            }
        }
    }
}
