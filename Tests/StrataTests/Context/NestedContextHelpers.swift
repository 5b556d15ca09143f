import Testing

@testable import Strata

/// Reading books back in the nested-context tests; call these on the context's queue.
extension ManagedObjectContext {
    /// The titles of the books matching `format` (every book when `nil`), in the order of
    /// `sortKey`, paged by `offset` and `limit`.
    func bookTitles(
        where format: String? = nil, sortedBy sortKey: String = "title", ascending: Bool = true, offset: Int = 0,
        limit: Int? = nil
    ) throws -> [String] {
        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.predicate = try format.map { try FetchPredicate(format: $0) }
        request.sortDescriptors = [FetchSortDescriptor(sortKey, ascending: ascending)]
        request.fetchOffset = offset
        request.fetchLimit = limit
        return try fetch(request).map { try $0.text("title") }
    }

    /// How many objects of `entity` match `format`.
    func count(_ entity: String, where format: String? = nil) throws -> Int {
        var request = FetchRequest<ManagedObject>(entityName: entity)
        request.predicate = try format.map { try FetchPredicate(format: $0) }
        return try count(for: request)
    }

    /// The one object of `entity` whose `key` is `value`.
    func only(_ entity: String, _ key: String, _ value: String) throws -> ManagedObject {
        var request = FetchRequest<ManagedObject>(entityName: entity)
        request.predicate = try FetchPredicate(format: "\(key) == %@", value)
        let found = Array(try fetch(request))
        try #require(found.count == 1, "expected one \(entity) with \(key) \(value), found \(found.count)")
        return found[0]
    }
}

extension ManagedObject {
    /// The string value of `key`, or "" when empty.
    func text(_ key: String) throws -> String {
        guard case .string(let text) = try value(forKey: key) else { return "" }
        return text
    }

    /// The `key` strings of the members of the to-many relationship `relationship`, sorted.
    func memberTexts(_ relationship: String, _ key: String) throws -> [String] {
        try objects(forKey: relationship).map { try $0.text(key) }.sorted()
    }
}

/// The notifications of one kind a context posts, collected as they come.
final class PostedNotifications: Sendable {
    private let posted = Locked<[ContextNotification]>([])

    /// Starts collecting the notifications of `kind` that `context` posts.
    init(_ kind: ContextNotification.Kind, by context: ManagedObjectContext) {
        context.performAndWait {
            _ = context.addObserver(for: kind) { changes in self.posted.withLock { $0.append(changes.notification) } }
        }
    }

    /// The notifications so far.
    var all: [ContextNotification] { posted.withLock { $0 } }
}

extension CatalogStack {
    /// A catalog whose store holds one book, Dune (412 pages), and its ID.
    static func withDune() throws -> (CatalogStack, ObjectID) {
        let stack = try CatalogStack()
        return (stack, try stack.saved("Book", [["title": "Dune", "pages": 412]])[0])
    }
}
