import Strata

/// A photo library whose photos are indexed for search: what the search tests, their worker and
/// the search benchmark share.
public enum PhotoLibraryModel {
    /// `Photo` (`title` and `caption` indexed for search, `title` its display name; `width`;
    /// to-many `tags`) and `Tag` (`name`, not indexed; to-many `photos`).
    public static func make(indexingWidth: Bool = false) -> ManagedObjectModel {
        let width = AttributeDescription("width", .integer64)
        return ManagedObjectModel {
            EntityDescription("Photo") {
                AttributeDescription("title", .string).indexedForSearch()
                AttributeDescription("caption", .string).indexedForSearch()
                indexingWidth ? width.indexedForSearch() : width
                RelationshipDescription.toMany("tags", destination: "Tag", inverse: "photos")
            }
            .displayedInSearch(as: "title")
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("photos", destination: "Photo", inverse: "tags")
            }
        }
    }

    /// Inserts photos `numbers` titled `Photo <n>`, with caption `caption <n>` and width 1000 + n, in one save.
    @discardableResult
    public static func insertPhotos(_ numbers: Range<Int>, into context: ManagedObjectContext) throws -> [ObjectID] {
        try context.performAndWait {
            let photos = try numbers.map { number in
                let photo = try context.insertNewObject(forEntityName: "Photo")
                try photo.setValue(.string("Photo \(number)"), forKey: "title")
                try photo.setValue(.string("caption \(number)"), forKey: "caption")
                try photo.setValue(.integer64(Int64(1000 + number)), forKey: "width")
                return photo
            }
            try context.save()
            return photos.map(\.objectID)
        }
    }
}
