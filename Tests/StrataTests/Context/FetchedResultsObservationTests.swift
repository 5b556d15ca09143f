import Foundation
import Testing

@testable import Strata

/// A fetch observed with `results(of:sectionKeyPath:)` reports inserts, deletes, updates and
/// moves, within and across sections, as the context changes.
@Suite(.timeLimit(.minutes(1))) struct FetchedResultsObservationTests {
    let context: ManagedObjectContext

    init() throws {
        let model = ManagedObjectModel {
            EntityDescription("City") {
                AttributeDescription("name", .string)
                AttributeDescription("country", .string)
                AttributeDescription("population", .integer32)
            }
        }
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: StoreType.inMemory.name)
        context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            for (name, country) in [("Oslo", "NO"), ("Bergen", "NO"), ("Rome", "IT")] {
                try insertCity(name, country)
            }
            try context.save()
        }
    }

    @discardableResult
    func insertCity(_ name: String, _ country: String) throws -> ManagedObject {
        let city = try context.insertNewObject(forEntityName: "City")
        try city.setValue(.string(name), forKey: "name")
        try city.setValue(.string(country), forKey: "country")
        return city
    }

    func city(_ name: String) throws -> ManagedObject {
        var request = FetchRequest<ManagedObject>(entityName: "City")
        request.predicate = try FetchPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    func name(of city: ManagedObject) throws -> String {
        guard case .string(let name) = try city.value(forKey: "name") else { return "?" }
        return name
    }

    /// The section names and the cities' names in them.
    func layout(_ update: FetchedResultsUpdate?) throws -> [String] {
        try context.performAndWait {
            try (update?.sections ?? []).map { section in
                let names = try section.objectIDs.map { try name(of: context.existingObject(with: $0)) }
                return section.name + ": " + names.joined(separator: ", ")
            }
        }
    }

    /// Each change as `kind name old→new`.
    func changes(_ update: FetchedResultsUpdate?) throws -> [String] {
        try context.performAndWait {
            try (update?.changes ?? []).map { change in
                let name: String
                if let object = context.registeredObject(for: change.objectID), !object.isDeleted {
                    name = try self.name(of: object)
                } else {
                    name = "gone"
                }
                let old = change.oldIndexPath.map(\.description) ?? "-"
                let new = change.newIndexPath.map(\.description) ?? "-"
                return "\(change.kind) \(name) \(old)→\(new)"
            }
        }
    }

    @Test func insertsDeletesUpdatesAndMovesAcrossSections() async throws {
        var request = FetchRequest<ManagedObject>(entityName: "City")
        request.sortDescriptors = [FetchSortDescriptor("country"), FetchSortDescriptor("name")]
        var updates = context.results(of: request, sectionKeyPath: "country").makeAsyncIterator()

        let first = try await updates.next()
        #expect(try layout(first) == ["IT: Rome", "NO: Bergen, Oslo"])
        #expect(first?.changes.isEmpty == true)

        try context.performAndWait { _ = try insertCity("Milan", "IT") }
        #expect(try changes(try await updates.next()) == ["insert Milan -→0.0"])

        try context.performAndWait { try city("Bergen").setValue("Trondheim", forKey: "name") }
        #expect(try changes(try await updates.next()) == ["move Trondheim 1.0→1.1"])

        try context.performAndWait { try city("Oslo").setValue(.integer32(700_000), forKey: "population") }
        #expect(try changes(try await updates.next()) == ["update Oslo 1.0→1.0"])

        try context.performAndWait { try context.delete(city("Rome")) }
        #expect(try changes(try await updates.next()) == ["delete gone 0.1→-"])

        try context.performAndWait { try city("Milan").setValue("NO", forKey: "country") }
        let moved = try await updates.next()
        #expect(try changes(moved) == ["move Milan 0.0→0.0"])
        #expect(try layout(moved) == ["NO: Milan, Oslo, Trondheim"])

        try context.performAndWait { try context.save() }
        let saved = try await updates.next()
        #expect(saved?.changes.isEmpty == true)
        #expect(saved?.objectIDs.allSatisfy { !$0.isTemporary } == true)
    }

    @Test func anUnknownEntityEndsTheSequenceWithAnError() async throws {
        var updates = context.results(of: FetchRequest<ManagedObject>(entityName: "Town")).makeAsyncIterator()
        await #expect(throws: ContextError.self) { _ = try await updates.next() }
    }

    @Test func oneObjectsChangesRefreshesSavesAndDeletion() async throws {
        let oslo = try context.performAndWait { try city("Oslo").objectID }
        var changes = context.changes(of: oslo).makeAsyncIterator()
        try context.performAndWait { try city("Oslo").setValue(.integer32(1), forKey: "population") }
        #expect(await changes.next()?.kind == .changed)
        try context.performAndWait { try context.save() }
        #expect(await changes.next()?.kind == .saved)
        try context.performAndWait { try context.refresh(city("Oslo"), mergeChanges: false) }
        #expect(await changes.next()?.kind == .refreshed)
        try context.performAndWait {
            try context.delete(city("Oslo"))
            try context.save()
        }
        #expect(await changes.next()?.kind == .deleted)
        #expect(await changes.next()?.kind == .deleted)
        #expect(await changes.next() == nil)
    }
}
