import Strata

/// Fills a context with the demo's guidebook: 3 countries of 4 states of 3 counties of 4 cities
/// with 3 points of interest each, 60 visits and 40 tips. Every name and number is derived from
/// positions, so each run builds the same guidebook.
enum GuidebookSeed {
    private static let countries = ["Arcadia", "Borealis", "Cascadia"]
    private static let categories = ["museum", "park", "market"]

    /// Inserts the guidebook into `context` (on its queue) and returns the city names.
    static func insert(into context: ManagedObjectContext) throws -> [String] {
        var cityNames: [String] = []
        for (c, countryName) in countries.enumerated() {
            let country = try make("Country", ["name": .string(countryName)], in: context)
            for s in 0..<4 {
                let state = try make("State", ["name": .string("\(countryName) State \(s + 1)")], in: context)
                try state.setObject(country, forKey: "country")
                for k in 0..<3 {
                    let county = try make("County", ["name": .string("County \(c)-\(s)-\(k)")], in: context)
                    try county.setObject(state, forKey: "state")
                    for t in 0..<4 {
                        let name = "\(countryName.prefix(3))ville \(s)\(k)\(t)"
                        let population = Int64(1_000 + (c * 48 + s * 12 + k * 4 + t) * 7_919 % 900_000)
                        let city = try make(
                            "City", ["name": .string(name), "population": .integer64(population)], in: context)
                        try city.setObject(county, forKey: "county")
                        cityNames.append(name)
                        let points = try categories.enumerated().map { index, category in
                            try make(
                                "PointOfInterest",
                                ["name": .string("\(name) \(category) \(index + 1)"), "category": .string(category)],
                                in: context)
                        }
                        try city.setObjects(points, forKey: "pointsOfInterest")
                    }
                }
            }
        }
        for index in 0..<100 {
            let isVisit = index < 60
            var values: [String: AttributeValue] = [
                "title": .string(isVisit ? "Visit \(index + 1)" : "Tip \(index - 59)"),
                "cityName": .string(cityNames[index * 7 % cityNames.count]), "day": .integer32(Int32(index % 30 + 1)),
            ]
            values[isVisit ? "companions" : "rating"] = .integer16(Int16(index % 5))
            _ = try make(isVisit ? "Visit" : "Tip", values, in: context)
        }
        return cityNames
    }

    private static func make(
        _ entity: String, _ values: [String: AttributeValue], in context: ManagedObjectContext
    ) throws -> ManagedObject {
        let object = try context.insertNewObject(forEntityName: entity)
        for (key, value) in values { try object.setValue(value, forKey: key) }
        return object
    }
}
