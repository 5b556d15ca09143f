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
    }

    /// What kind of failure it is.
    public let code: Code
    /// A sentence naming the index file or the query and what is wrong.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
