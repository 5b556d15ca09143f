import Foundation
import Testing

@testable import Strata

/// Subclasses with typed properties: values, relationships with inverses, lifecycle hooks and
/// validation overrides, and fetches that return the subclass.
@Suite struct TypedManagedObjectTests {
    final class Band: ManagedObject {
        @Managed var name: String
        @Managed var founded: Int32?
        @ToMany var fans: Set<Fan>
        @OrderedToMany var albums: [Album]
        var events: [String] = []

        override func awakeFromInsert() { events.append("insert") }
        override func awakeFromFetch() { events.append("fetch") }
        override func willSave() { events.append("willSave") }
        override func didSave() { events.append("didSave") }

        override func validateForInsert() throws {
            try super.validateForInsert()
            if name == "Nobody" {
                throw ValidationError(code: .custom, objectID: objectID, key: "name", message: "A band needs a name.")
            }
        }
    }

    final class Album: ManagedObject {
        @Managed var title: String
        @ToOne var band: Band?
    }

    final class Fan: ManagedObject {
        @Managed var name: String
        @ToMany var bands: Set<Band>
    }

    private func makeContext() throws -> ManagedObjectContext {
        let model = ManagedObjectModel {
            Entity("Band") {
                Attribute("name", .string, optional: false)
                Attribute("founded", .integer32)
                Relationship.toMany("fans", destination: "Fan", inverse: "bands")
                Relationship.toMany("albums", destination: "Album", inverse: "band", ordered: true)
            }
            Entity("Album") {
                Attribute("title", .string, optional: false)
                Relationship.toOne("band", destination: "Band", inverse: "albums")
            }
            Entity("Fan") {
                Attribute("name", .string, optional: false)
                Relationship.toMany("bands", destination: "Band", inverse: "fans")
            }
        }
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: InMemoryStore.typeName)
        coordinator.register(Band.self)
        coordinator.register(Album.self)
        coordinator.register(Fan.self)
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func typedPropertiesReadWriteAndKeepInverses() throws {
        let context = try makeContext()
        try context.performAndWait {
            let band = Band(context: context)
            band.name = "Low"
            #expect(band.founded == nil)
            band.founded = 1993
            let first = Album(context: context)
            first.title = "I Could Live in Hope"
            let second = Album(context: context)
            second.title = "Long Division"
            band.albums = [first, second]
            #expect(first.band === band && second.band === band)
            let fan = Fan(context: context)
            fan.name = "Ada"
            fan.bands.insert(band)
            #expect(band.fans == [fan])
            #expect(try band.value(forKey: "founded") == .integer32(1993))
            second.band = nil
            #expect(band.albums.map(\.title) == ["I Could Live in Hope"])
            try context.save()
        }
    }

    @Test func fetchesReturnTheSubclassAndHooksRun() throws {
        let context = try makeContext()
        let band = try context.performAndWait {
            let band = Band(context: context)
            band.name = "Low"
            try context.save()
            return band
        }
        #expect(band.events == ["insert", "willSave", "didSave"])

        let other = ManagedObjectContext(coordinator: context.coordinator)
        let fetched = try other.performAndWait {
            let bands = try other.fetch(FetchRequest<Band>())
            #expect(bands.count == 1)
            return bands.first.map { ($0.name, $0.events) }
        }
        #expect(fetched?.0 == "Low" && fetched?.1 == ["fetch"])
    }

    @Test func aValidationOverrideFailsTheSave() throws {
        let context = try makeContext()
        let error = context.performAndWait {
            let band = Band(context: context)
            band.name = "Nobody"
            return Result { try context.save() }
        }
        guard case .failure(let failure as ContextError) = error else {
            Issue.record("The save did not fail with a ContextError: \(error)")
            return
        }
        #expect(failure.code == .validation)
        #expect(failure.validationErrors.map(\.code) == [.custom] && failure.validationErrors.first?.key == "name")
    }
}
