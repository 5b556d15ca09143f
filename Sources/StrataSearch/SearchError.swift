/// Why the search index could not do what it was asked.
public struct SearchError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Code: String, Sendable {
        /// The query is not valid search syntax (an unbalanced quote, a lone `AND`, …).
        case invalidQuery
        /// The index file cannot be opened, read or written.
        case io
        /// The index file is not a search index, or is damaged.
        case corrupt
        /// The store an exporter was asked to index does not track persistent history, which
        /// the exporter reads to keep the index current.
        case historyRequired
        /// The store an exporter was asked to index is not added to the coordinator, or has no
        /// file beside which to keep the index and no index URL was given.
        case invalidStore
        /// Reading the store's objects or history failed, or the fields hook threw; the
        /// message carries the cause.
        case export
    }

    /// What kind of failure it is.
    public let code: Code
    /// A sentence naming the index file, the store or the query and what is wrong.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
