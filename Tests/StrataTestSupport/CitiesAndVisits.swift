import Strata

/// Cities in configuration `Atlas` and visits in `Diary`, related across two stores: each
/// visit has a city and an ordered list of sights. What the stores' tests of references to
/// other stores' objects save.
public enum CitiesAndVisits {
    public static let model = makeModel()

    /// The model; `visitsRated` gives visits an attribute more, `rating`, as a next version.
    public static func makeModel(visitsRated: Bool = false) -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("City") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("visits", destination: "Visit", inverse: "city")
                RelationshipDescription.toMany("seenOn", destination: "Visit", inverse: "sights")
            }
            EntityDescription("Visit") {
                AttributeDescription("note", .string)
                if visitsRated { AttributeDescription("rating", .integer16) }
                RelationshipDescription.toOne("city", destination: "City", inverse: "visits")
                RelationshipDescription.toMany("sights", destination: "City", inverse: "seenOn", ordered: true)
            }
            ConfigurationDescription("Atlas", entities: ["City"])
            ConfigurationDescription("Diary", entities: ["Visit"])
        }
    }

    /// Saves, in one context of `coordinator`, cities A, B and C, and visits `a` (city A,
    /// sights C then A), `b` (city B, no sights) and `none` (no city, sight B); returns their IDs
    /// in that order.
    public static func save(in coordinator: PersistentStoreCoordinator) throws -> (
        cities: [ObjectID], visits: [ObjectID]
    ) {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            let cities = try ["A", "B", "C"].map { name in
                let city = try context.insertNewObject(forEntityName: "City")
                try city.setValue(.string(name), forKey: "name")
                return city
            }
            let plan: [(String, ManagedObject?, [ManagedObject])] = [
                ("a", cities[0], [cities[2], cities[0]]), ("b", cities[1], []), ("none", nil, [cities[1]]),
            ]
            let visits = try plan.map { note, city, sights in
                let visit = try context.insertNewObject(forEntityName: "Visit")
                try visit.setValue(.string(note), forKey: "note")
                try visit.setObject(city, forKey: "city")
                try visit.setObjects(sights, forKey: "sights")
                return visit
            }
            try context.save()
            return (cities.map(\.objectID), visits.map(\.objectID))
        }
    }
}
