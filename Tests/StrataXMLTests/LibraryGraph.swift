import Foundation
import Strata

/// A small library model and graphs of it, built straight as store contents.
enum LibraryGraph {
    /// The store identifier every graph uses, so that files can be compared byte for byte.
    static let storeIdentifier = "5A1B3C7D-0000-4000-8000-00000000A11B"

    /// `Author` (name, born, to-many `books`) and `Book` (title, price, rating, cover, to-one `author`).
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string)
                AttributeDescription("born", .date)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author", ordered: true)
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("price", .decimal)
                AttributeDescription("rating", .double)
                AttributeDescription("cover", .binary)
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
            }
        }
        try! model.freeze()  // A fixed, valid model: freezing cannot fail.
        return model
    }()

    /// `authors` authors with `booksEach` books each; objects are numbered from 1, each author
    /// before its books.
    static func contents(authors: Int, booksEach: Int) -> AtomicStoreContents {
        var nodes: [StoreNode] = []
        var next: Int64 = 1
        func id(_ entity: String, _ reference: Int64) -> ObjectID {
            ObjectID(storeIdentifier: storeIdentifier, entityName: entity, reference: .integer(reference))
        }
        for index in 0..<authors {
            let author = id("Author", next)
            let books = (1...Int64(max(booksEach, 1))).prefix(booksEach).map { id("Book", next + $0) }
            next += Int64(booksEach) + 1
            nodes.append(
                StoreNode(
                    snapshot: Snapshot(
                        objectID: author,
                        values: [
                            "name": .string("Author \(index)"),
                            "born": .date(Date(timeIntervalSinceReferenceDate: Double(index) * 86_400.25)),
                        ], version: 1),
                    toManyRelationships: ["books": books]))
            for (number, book) in books.enumerated() {
                nodes.append(
                    StoreNode(
                        snapshot: Snapshot(
                            objectID: book,
                            values: [
                                "title": .string("Book \(number) of \(index) <&>"),
                                "price": .decimal(Decimal(string: "\(number).95")!),
                                "rating": number == 0 ? .null : .double(Double(number) / 3),
                                "cover": .binary(Data([UInt8(truncatingIfNeeded: index), 0, 255])),
                                "author": .objectID(author),
                            ], version: Int64(number + 1)),
                        toManyRelationships: [:]))
            }
        }
        return AtomicStoreContents(
            metadata: StoreMetadata(storeType: "XML", storeIdentifier: storeIdentifier, model: model), nodes: nodes,
            nextReference: next)
    }
}
