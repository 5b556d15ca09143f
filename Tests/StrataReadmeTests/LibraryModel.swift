import Strata

/// The model of README's examples: authors and their books in one configuration, the loans
/// desk in another.
enum LibraryModel {
    /// A new, frozen copy of the model.
    static func make() throws -> ManagedObjectModel {
        // snippet: model
        let model = ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string, optional: false)
                Relationship.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)
            }
            Entity("Book") {
                Relationship.toOne("author", destination: "Author", inverse: "books")
                Attribute("title", .string)
                Attribute("pages", .integer32, min: 1)
            }
            Entity("Loan") {
                Attribute("borrower", .string)
                Attribute("title", .string)
                Attribute("due", .date)
            }
            Configuration("Catalog", entities: ["Author", "Book"])
            Configuration("Desk", entities: ["Loan"])
        }
        try model.freeze()  // validates; the model is now immutable and Sendable
        // end snippet
        return model
    }
}
