import Strata

/// The model of the container tests: cities with a name and a population.
enum ContainerModel {
    /// `City` with `name` (string) and `population` (integer 64).
    static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("City") {
                AttributeDescription("name", .string)
                AttributeDescription("population", .integer64)
            }
        }
    }
}
