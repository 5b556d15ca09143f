import Strata

/// The authors and books a replica's context reads, as sorted lines, for comparing replicas.
enum LibraryDump {
    static func lines(in context: ManagedObjectContext) throws -> [String] {
        func text(_ value: AttributeValue?) -> String {
            switch value {
            case .string(let text)?: text
            case .integer32(let number)?: "\(number)"
            default: "nobody"
            }
        }
        return try context.performAndWait {
            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).map { book in
                let author = try book.object(forKey: "author")?.value(forKey: "name")
                return "Book \(text(try book.value(forKey: "title"))) \(text(try book.value(forKey: "pages"))) by "
                    + text(author)
            }
            let authors = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author")).map { author in
                let titles = try author.objects(forKey: "books").map { text(try $0.value(forKey: "title")) }
                return "Author \(text(try author.value(forKey: "name"))) of \(titles.sorted())"
            }
            return (books + authors).sorted()
        }
    }
}
