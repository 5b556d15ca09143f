import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// A model written only as classes loads, saves and reopens on every built-in store type, and
/// the stores record the model's version hashes.
@Suite struct ClassModelStoreTests {
    class Place: ManagedObject {
        override class var entityOptions: EntityOptions { EntityOptions(abstract: true) }
        @Managed(.unique) var name: String
        @Managed var visitors: Int64 = 0
    }

    final class City: Place {
        @Managed var founded: Date?
        @OrderedToMany(deleteRule: .cascade) var sights: [Sight]
        @ToOne var country: Country?
    }

    final class Sight: ManagedObject {
        @Managed var title: String
        @Managed var rating: Double?
        @ToOne(inverse: \City.sights) var city: City?
    }

    final class Country: ManagedObject {
        @Managed var code: String
        @ToMany var cities: Set<City>
    }

    static func model() throws -> ManagedObjectModel { try ManagedObjectModel(types: [City.self]) }

    @Test(arguments: StoreType.builtInFileTypes.map(\.name))
    func savesAndReopensTypedObjects(type: String) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("guide.\(type.lowercased())")
        do {
            let coordinator = try PersistentStoreCoordinator(
                model: Self.model(), storeTypes: StoreType.builtInFileTypes)
            try coordinator.addStore(type: type, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.performAndWait {
                let norway = Country(context: context)
                norway.code = "NO"
                let oslo = City(context: context)
                oslo.name = "Oslo"
                oslo.founded = Date(timeIntervalSinceReferenceDate: -29_000_000_000)
                oslo.country = norway
                for (title, rating) in [("Opera", 4.5), ("Vigeland", 4.8)] {
                    let sight = Sight(context: context)
                    sight.title = title
                    sight.rating = rating
                    sight.city = oslo
                }
                try context.save()
            }
        }
        let model = try Self.model()
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        let store = try coordinator.addStore(type: type, at: url)
        #expect(store.metadata.versionHashes == model.schema.entityVersionHashes)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let cities = try context.fetch(FetchRequest<City>(predicate: #Predicate { $0.country?.code == "NO" }))
            let oslo = try #require(cities.first)
            #expect(cities.count == 1 && oslo.name == "Oslo" && oslo.visitors == 0)
            #expect(oslo.founded == Date(timeIntervalSinceReferenceDate: -29_000_000_000))
            #expect(oslo.sights.map(\.title) == ["Opera", "Vigeland"])
            #expect(oslo.sights.map(\.rating) == [4.5, 4.8])
            #expect(oslo.country?.cities == [oslo])
            let places = try context.fetch(FetchRequest<Place>(sortBy: [SortDescriptor(\.name)]))
            #expect(places.map(\.name) == ["Oslo"])
        }
    }
}
