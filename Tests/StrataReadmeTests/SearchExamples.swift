import Foundation
import Strata
import StrataSearch
import StrataStores

/// README's example of search: a photo library whose titles, captions and tags are found by
/// words, each hit turned back into its photo.
enum SearchExamples {
    /// Saves a tagged photo in a container in `folder`, indexes it, and returns the titles of
    /// the photos a search for `query` finds.
    @MainActor static func findPhotos(matching query: String, in folder: URL) async throws -> [String] {
        // snippet: search
        let model = ManagedObjectModel {
            EntityDescription("Photo") {
                AttributeDescription("title", .string).indexedForSearch()  // Xcode's "Index in Spotlight"
                AttributeDescription("caption", .string).indexedForSearch()
                RelationshipDescription.toMany("tags", destination: "Tag", inverse: "photos")
            }
            .displayedInSearch(as: "title")  // what a hit shows
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("photos", destination: "Photo", inverse: "tags")
            }
        }
        var description = PersistentStoreDescription.sqlite(at: folder.appendingPathComponent("Photos.sqlite"))
        description.tracksPersistentHistory = true  // the exporter follows the store's history
        let container = try PersistentContainer(name: "Photos", model: model, directory: folder)
        container.persistentStoreDescriptions = [description]
        try await container.loadPersistentStores()
        let exporter = try SearchIndexExporter(forStoreWith: description, coordinator: container.coordinator) {
            photo, fields in
            var fields = fields  // the title and the indexed text, as the model says
            fields.keywords = try photo.objects(forKey: "tags").compactMap { tag in
                if case .string(let name) = try tag.value(forKey: "name") { name } else { nil }
            }
            return fields
        }
        exporter.startIndexing()  // on its own queue: every photo first, then each save
        try await container.performBackgroundTask { context in
            let photo = try context.insertNewObject(forEntityName: "Photo")
            try photo.setValue(.string("Taj Mahal"), forKey: "title")
            try photo.setValue(.string("Morning light on the river"), forKey: "caption")
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue(.string("India"), forKey: "name")
            try photo.setObjects([tag], forKey: "tags")
            try context.save()
        }
        try exporter.exportPendingChanges()  // catch up now rather than in a moment
        let view = container.viewContext
        let titles = try exporter.search(query, limit: 10).map { hit in  // hit.snippet: "…[India]…"
            let photo = try view.existingObject(with: container.coordinator.objectID(forURIRepresentation: hit.uri)!)
            return try photo.value(forKey: "title")
        }
        // end snippet
        exporter.stopIndexing()
        return titles.compactMap { if case .string(let title) = $0 { title } else { nil } }
    }
}
