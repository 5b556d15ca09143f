import Foundation
import Strata

/// X: fetched properties fetch from the store with `$FETCH_SOURCE` resolved, after saves and
/// reopening, and fetch afresh once their object is refreshed.
enum FetchedPropertyChecks {
    static var all: [ConformanceCheck] { [afterReopening, fetchSourceIdentity, refreshedAfterSaves] }

    /// Readers whose suggestions are the books of their favourite genre.
    private static let readingModel = ManagedObjectModel {
        EntityDescription("Reader") {
            AttributeDescription("name", .string)
            AttributeDescription("favouriteGenre", .string)
            FetchedPropertyDescription(
                name: "suggestions", destinationEntityName: "Novel",
                predicateFormat: "genre == $FETCH_SOURCE.favouriteGenre")
        }
        EntityDescription("Novel") {
            AttributeDescription("title", .string)
            AttributeDescription("genre", .string)
            FetchedPropertyDescription(
                name: "sameGenre", destinationEntityName: "Novel",
                predicateFormat: "genre == $FETCH_SOURCE.genre AND SELF != $FETCH_SOURCE")
        }
    }

    private static func withReading<T>(in harness: CheckHarness, _ body: (CheckStack) throws -> T) throws -> T {
        try harness.withStore(of: readingModel, named: "reading", body)
    }

    /// Saves Ada, who likes poetry, and the novels `titles` with their genres.
    private static func save(_ novels: [(String, String)], reader: Bool, in harness: CheckHarness) throws {
        try withReading(in: harness) { stack in
            if reader { try stack.insert("Reader", ["name": "Ada", "favouriteGenre": "poetry"]) }
            for (title, genre) in novels {
                try stack.insert("Novel", ["title": .string(title), "genre": .string(genre)])
            }
            try stack.save()
        }
    }

    private static func titles(_ objects: [ManagedObject], in stack: CheckStack) throws -> [String] {
        try objects.map { object -> String in
            guard case .string(let title) = try stack.value(object, "title") else { return "" }
            return title
        }.sorted()
    }

    private static let afterReopening = ConformanceCategory.fetchedProperties.check(
        "afterReopening", "A fetched property reading a value of its object finds the matching saved objects."
    ) { harness in
        try save([("Odes", "poetry"), ("Atlas", "maps"), ("Sonnets", "poetry")], reader: true, in: harness)
        try withReading(in: harness) { stack in
            let reader = try require(try stack.objects("Reader").first, "The saved reader is missing.")
            let found = try stack.run { try reader.fetchedObjects(forKey: "suggestions") }
            try expectEqual(try titles(found, in: stack), ["Odes", "Sonnets"], "Reader.suggestions")
        }
    }

    private static let fetchSourceIdentity = ConformanceCategory.fetchedProperties.check(
        "fetchSourceIdentity", "A fetched property comparing objects with $FETCH_SOURCE leaves its own object out."
    ) { harness in
        try save([("Odes", "poetry"), ("Atlas", "maps"), ("Sonnets", "poetry")], reader: false, in: harness)
        try withReading(in: harness) { stack in
            let odes = try require(try stack.objects("Novel", where: "title == 'Odes'").first, "Odes is missing.")
            let found = try stack.run { try odes.fetchedObjects(forKey: "sameGenre") }
            try expectEqual(try titles(found, in: stack), ["Sonnets"], "Novel.sameGenre of Odes")
        }
    }

    private static let refreshedAfterSaves = ConformanceCategory.fetchedProperties.check(
        "refreshedAfterSaves", "A fetched property keeps its result through a save and fetches afresh after a refresh."
    ) { harness in
        try save([("Odes", "poetry")], reader: true, in: harness)
        try withReading(in: harness) { stack in
            let reader = try require(try stack.objects("Reader").first, "The saved reader is missing.")
            let before = try stack.run { try reader.fetchedObjects(forKey: "suggestions") }
            try stack.insert("Novel", ["title": "Elegies", "genre": "poetry"])
            try stack.save()
            let kept = try stack.run { try reader.fetchedObjects(forKey: "suggestions") }
            try expectEqual(
                try titles(kept, in: stack), try titles(before, in: stack), "Reader.suggestions before refresh")
            try stack.run { try stack.context.refresh(reader, mergeChanges: false) }
            let after = try stack.run { try reader.fetchedObjects(forKey: "suggestions") }
            try expectEqual(try titles(after, in: stack), ["Elegies", "Odes"], "Reader.suggestions after refresh")
        }
    }
}
