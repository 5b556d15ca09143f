import Strata

/// The model of README's examples: authors and their books in one configuration, the loans
/// desk in another.
enum LibraryModel {
    /// A new, frozen copy of the model.
    static func make() throws -> ManagedObjectModel {
        // snippet: model
        let model = ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)
            }
            EntityDescription("Book") {
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32, min: 1)
            }
            EntityDescription("Loan") {
                AttributeDescription("borrower", .string)
                AttributeDescription("title", .string)
                AttributeDescription("due", .date)
            }
            ConfigurationDescription("Catalog", entities: ["Author", "Book"])
            ConfigurationDescription("Desk", entities: ["Loan"])
        }
        try model.freeze()  // validates; the model is now immutable and Sendable
        // end snippet
        return model
    }

    /// Later versions of the model, for README's migration example: version 2 renames
    /// `Author.name` to `fullName`, version 3 adds `Author.born`, version 4 adds `Book.isbn`.
    static func version(_ number: Int) throws -> ManagedObjectModel {
        guard number > 1 else { return try make() }
        let model = ManagedObjectModel(versionIdentifiers: ["\(number)"]) {
            EntityDescription("Author") {
                AttributeDescription("fullName", .string, optional: false).renamed(from: "name")
                if number >= 3 { AttributeDescription("born", .integer16) }
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)
            }
            EntityDescription("Book") {
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32, min: 1)
                if number >= 4 { AttributeDescription("isbn", .string) }
            }
            EntityDescription("Loan") {
                AttributeDescription("borrower", .string)
                AttributeDescription("title", .string)
                AttributeDescription("due", .date)
            }
            ConfigurationDescription("Catalog", entities: ["Author", "Book"])
            ConfigurationDescription("Desk", entities: ["Loan"])
        }
        try model.freeze()
        return model
    }
}
