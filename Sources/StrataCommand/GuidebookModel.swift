import Strata

/// The demo's model, written as classes: an atlas of countries, states, counties, cities and
/// points of interest; travel notes of two kinds, visits and tips, under one abstract class.
/// Three configurations stripe it across three stores: `Atlas`, `Journal` (visits) and `Guide`
/// (tips). A visit's city and a city's visits relate objects of two stores.
enum GuidebookModel {
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(
            types: [Country.self, Visit.self, Tip.self],
            configurations: [
                "Atlas": [Country.self, State.self, County.self, City.self, PointOfInterest.self],
                "Journal": [Note.self, Visit.self], "Guide": [Note.self, Tip.self],
            ],
            versionIdentifiers: ["guidebook-1"])
    }
}

final class Country: ManagedObject {
    @Managed var name: String
    @ToMany(deleteRule: .cascade) var states: Set<State>
}

final class State: ManagedObject {
    @Managed var name: String
    @ToOne var country: Country?
    @ToMany(deleteRule: .cascade) var counties: Set<County>
}

final class County: ManagedObject {
    @Managed var name: String
    @ToOne var state: State?
    @ToMany(deleteRule: .cascade) var cities: Set<City>
}

final class City: ManagedObject {
    @Managed var name: String
    @Managed var population: Int64
    @ToOne var county: County?
    @OrderedToMany(deleteRule: .cascade) var pointsOfInterest: [PointOfInterest]
    @ToMany var visits: Set<Visit>
}

final class PointOfInterest: ManagedObject {
    @Managed var name: String
    @Managed var category: String?
    @ToOne var city: City?
}

/// A travel note; only its kinds have objects.
class Note: ManagedObject {
    override class var entityOptions: EntityOptions { EntityOptions(abstract: true) }
    @Managed var title: String
    @Managed var cityName: String?
    @Managed var day: Int32
}

final class Visit: Note {
    @Managed var companions: Int16?
    @ToOne var city: City?
}

final class Tip: Note {
    @Managed var rating: Int16?
}
