import Strata
import StrataTestSupport

/// An object graph with every kind of relationship: countries list their cities in order
/// (ordered to-many, inverse to-one) and cities name their twin cities (many-to-many).
enum TravelGraph {
    /// The model: ``TravelModel``.
    static func model() -> ManagedObjectModel { TravelModel.make() }

    /// Inserts two countries and four cities into `context` and saves.
    static func insert(into context: ManagedObjectContext) throws {
        try context.performAndWait {
            func make(_ entity: String, _ name: String) throws -> ManagedObject {
                let object = try context.insertNewObject(forEntityName: entity)
                try object.setValue(.string(name), forKey: "name")
                return object
            }
            let france = try make("Country", "France")
            let japan = try make("Country", "Japan")
            let cities = try ["Paris", "Lyon", "Kyoto", "Osaka"].map { try make("City", $0) }
            for (index, city) in cities.enumerated() {
                try city.setValue(.integer64(Int64(index + 1) * 100_000), forKey: "population")
            }
            try france.setObjects([cities[1], cities[0]], forKey: "cities")
            try japan.setObjects([cities[3], cities[2]], forKey: "cities")
            try cities[0].setObjects([cities[2], cities[3]], forKey: "twins")
            try context.save()
        }
    }

    /// One line per object, in name order, naming its values and relationships by name.
    static func summary(of context: ManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            func name(_ object: ManagedObject?) throws -> String {
                guard let object, case .string(let text) = try object.value(forKey: "name") else { return "-" }
                return text
            }
            var lines: [String] = []
            for entity in ["Country", "City"] {
                for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity)) {
                    var line = "\(entity) \(try name(object))"
                    if entity == "Country" {
                        line += " cities \(try object.objects(forKey: "cities").map(name))"
                    } else {
                        line += " population \(try object.value(forKey: "population"))"
                        line += " country \(try name(object.object(forKey: "country")))"
                        line += " twins \(try object.objects(forKey: "twins").map(name).sorted())"
                    }
                    lines.append(line)
                }
            }
            return lines.sorted()
        }
    }
}
