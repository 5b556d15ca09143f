import Foundation
import Strata
import StrataXcodeModel

/// `make demo`: builds a small model in code (or loads the Xcode model given as the first
/// argument: a `.xcdatamodeld` or `.xcdatamodel`), validates and freezes it, and prints a
/// summary of its entities with their Core Data version hashes and the size of its JSON form.
let model: ManagedObjectModel
if CommandLine.arguments.count > 1 {
    do {
        model = try XcodeModel.load(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
    } catch {
        print(error)
        exit(1)
    }
} else {
    model = bookshop()
}

func bookshop() -> ManagedObjectModel {
    ManagedObjectModel(versionIdentifiers: ["1"]) {
        EntityDescription("Author") {
            AttributeDescription("name", .string, optional: false, min: 1, max: 80)
            AttributeDescription("born", .date)
            RelationshipDescription.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)
            UniquenessConstraint("name")
        }
        EntityDescription("Book") {
            AttributeDescription("title", .string, optional: false)
            AttributeDescription("price", .decimal, default: .decimal(0))
            AttributeDescription("isbn", .string).matching("[0-9-]{10,17}")
            RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
            FetchIndexDescription(name: "byTitle", elements: [.init(propertyName: "title")])
        }
        FetchRequestTemplate(name: "booksByAuthor", entityName: "Book", predicateFormat: "author.name == $NAME")
    }
}

do {
    try model.freeze()
} catch {
    print("The model is not valid: \(error)")
    exit(1)
}

print("Strata model \(model.versionIdentifiers) — \(model.entities.count) entities")
for entity in model.schema.entities {
    let hash = Data(entity.versionHash).base64EncodedString()
    let properties =
        entity.attributes.map { "\($0.name): \($0.type.modelFileName)" }
        + entity.relationships.map {
            "\($0.name) → \($0.isToMany ? "[\($0.destinationEntityName)]" : $0.destinationEntityName)"
        }
    print("  \(entity.name)  \(hash)")
    for property in properties { print("    \(property)") }
}
print("JSON form: \(model.jsonData().count) bytes")
