import Strata

/// Fills a context with the demo's guidebook: 3 countries of 4 states of 3 counties of 4 cities
/// with 3 points of interest each, 60 visits and 40 tips about 20 of the cities. Every name and
/// number is derived from positions, so each run builds the same guidebook.
enum GuidebookSeed {
    private static let countries = ["Arcadia", "Borealis", "Cascadia"]
    private static let categories = ["museum", "park", "market"]

    /// Inserts the guidebook into `context` (on its queue) and returns the city names. Each
    /// visit is related to the city it names, across stores.
    static func insert(into context: ManagedObjectContext) -> [String] {
        var cities: [City] = []
        for (c, countryName) in countries.enumerated() {
            let country = Country(context: context)
            country.name = countryName
            for s in 0..<4 {
                let state = State(context: context)
                state.name = "\(countryName) State \(s + 1)"
                state.country = country
                for k in 0..<3 {
                    let county = County(context: context)
                    county.name = "County \(c)-\(s)-\(k)"
                    county.state = state
                    for t in 0..<4 {
                        let city = City(context: context)
                        city.name = "\(countryName.prefix(3))ville \(s)\(k)\(t)"
                        city.population = Int64(1_000 + (c * 48 + s * 12 + k * 4 + t) * 7_919 % 900_000)
                        city.county = county
                        cities.append(city)
                        city.pointsOfInterest = categories.enumerated().map { index, category in
                            let point = PointOfInterest(context: context)
                            point.name = "\(city.name) \(category) \(index + 1)"
                            point.category = category
                            return point
                        }
                    }
                }
            }
        }
        for index in 0..<100 {
            let note: Note
            let city = cities[index % 20 * 7]
            if index < 60 {
                let visit = Visit(context: context)
                visit.title = "Visit \(index + 1)"
                visit.companions = Int16(index % 5)
                visit.city = city
                note = visit
            } else {
                let tip = Tip(context: context)
                tip.title = "Tip \(index - 59)"
                tip.rating = Int16(index % 5)
                note = tip
            }
            note.cityName = city.name
            note.day = Int32(index % 30 + 1)
        }
        return cities.map(\.name)
    }
}
