import CStrataSQLite
import Foundation
import Strata
import StrataSQLite

/// A full-text index of objects in an SQLite file of its own, through SQLite's FTS5: each
/// object is one entry (its title, text and keywords) under its object-ID URI, and a search
/// returns the best entries first (bm25), with a snippet of the matched terms.
///
/// ```swift
/// let index = try SearchIndex(at: folder.appendingPathComponent("Photos.search"))
/// try index.apply(upserting: [entry], removing: [], position: nil)
/// let hits = try index.search("india photo", limit: 10)
/// ```
///
/// Besides the entries, the file keeps a position (``position()``): what the writer of the
/// index last applied, such as a history token, written in the same transaction as the entries,
/// so that an index and its position never disagree, also after a crash.
public final class SearchIndex: @unchecked Sendable {
    // Sendable because the connection is used only while `lock` is held, by one thread at a time.
    /// One object's searchable fields.
    public struct Entry: Sendable, Hashable {
        /// The object's ID as a URI (`ObjectID.uriRepresentation`).
        public var uri: URL
        /// The object's entity.
        public var entityName: String
        /// What search results show for the object.
        public var title: String
        /// The object's searchable text.
        public var text: String
        /// Words that find the object without being shown.
        public var keywords: [String]

        /// Creates an entry.
        public init(uri: URL, entityName: String, title: String, text: String = "", keywords: [String] = []) {
            self.uri = uri
            self.entityName = entityName
            self.title = title
            self.text = text
            self.keywords = keywords
        }
    }

    /// One object a search found.
    public struct Hit: Sendable, Hashable {
        /// The object's ID as a URI, which `PersistentStoreCoordinator.objectID(forURIRepresentation:)`
        /// turns back into the ID.
        public var uri: URL
        /// The object's entity.
        public var entityName: String
        /// The entry's title.
        public var title: String
        /// A piece of the entry's text or title with the matched terms in `[` `]`.
        public var snippet: String
        /// How well the entry matches: higher is better.
        public var score: Double
    }

    /// The index file.
    public let url: URL
    private let connection: SQLiteConnection
    private let lock = NSLock()

    /// The version of the index's tables, kept as the file's `user_version`.
    static let layoutVersion: Int64 = 1
    /// The tables an index of an earlier layout (version 0) holds: FTS5's own for `entries`,
    /// `objects` and `state`.
    private static let earlierTables: Set<String> = [
        "entries", "entries_data", "entries_idx", "entries_content", "entries_docsize", "entries_config", "objects",
        "state",
    ]

    /// Opens the index at `url`, creating it when the file is missing. An index of an earlier
    /// layout is emptied and made anew (its position with it, so that an exporter exports
    /// everything again).
    ///
    /// - Throws: ``SearchError`` with code ``SearchError/Code/io`` when the file cannot be
    ///   opened or created, ``SearchError/Code/corrupt`` when it is not a search index.
    public init(at url: URL) throws {
        self.url = url
        let opened: SQLiteConnection
        do {
            opened = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
            try opened.execute(script: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
            let version = try opened.cachedStatement("PRAGMA user_version").rows { $0.value(at: 0) }.first
            if version != .integer(Self.layoutVersion) {
                try Self.create(on: opened, replacing: version ?? .null, url: url)
            }
        } catch let error as SearchError {
            throw error
        } catch {
            throw Self.error(error, doing: "opening", url: url)
        }
        connection = opened
    }

    /// Makes the index's tables in a file that has none, or replaces those of an earlier layout.
    private static func create(on connection: SQLiteConnection, replacing version: SQLiteValue, url: URL) throws {
        let tables = try connection.cachedStatement("SELECT name FROM sqlite_master WHERE type = 'table'").rows {
            text($0.value(at: 0))
        }
        guard case .integer(let found) = version, found == 0, Set(tables).isSubset(of: earlierTables) else {
            let found = if case .integer(let number) = version { number } else { Int64(-1) }
            throw SearchError(
                code: .corrupt,
                message: "The file '\(url.path)' is not a search index of layout \(layoutVersion): its layout is "
                    + "\(found) and it holds the tables \(tables.sorted().joined(separator: ", ")).")
        }
        try connection.transaction {
            try connection.execute(
                script: """
                    DROP TABLE IF EXISTS entries;
                    DROP TABLE IF EXISTS objects;
                    DROP TABLE IF EXISTS state;
                    CREATE VIRTUAL TABLE entries USING fts5(
                        title, text, keywords, tokenize = 'unicode61 remove_diacritics 2');
                    CREATE TABLE objects (entry INTEGER PRIMARY KEY, uri TEXT NOT NULL UNIQUE, entity TEXT NOT NULL);
                    CREATE TABLE state (key TEXT PRIMARY KEY, value BLOB);
                    PRAGMA user_version = \(layoutVersion);
                    """)
        }
    }

    /// One entry as the index keeps it, its object's URI as text: what an exporter writes.
    struct Row {
        var uri: String
        var entityName: String
        var title: String
        var text: String
        var keywords: [String]
    }

    /// Replaces the entries of `upserting`'s objects, removes those of `removing`, and sets the
    /// position to `position` (leaves it when `nil`), in one transaction.
    public func apply(upserting entries: [Entry], removing uris: [URL], position: Data?) throws {
        try apply(
            rows: entries.map {
                Row(
                    uri: $0.uri.absoluteString, entityName: $0.entityName, title: $0.title, text: $0.text,
                    keywords: $0.keywords)
            }, removing: uris.map(\.absoluteString), position: position)
    }

    /// ``apply(upserting:removing:position:)`` with the URIs as text. Rows that are `new` (the
    /// index holds none of their objects, as in a first export) are inserted without looking
    /// for entries to replace; one that is not new fails on the URI's uniqueness.
    func apply(rows: [Row], new: Bool = false, removing uris: [String], position: Data?) throws {
        try run("writing") { connection in
            try connection.transaction {
                for uri in new ? uris : uris + rows.map(\.uri) { try remove(uri, on: connection) }
                let entry = try connection.cachedStatement(
                    "INSERT INTO entries (title, text, keywords) VALUES (?, ?, ?)")
                let object = try connection.cachedStatement(
                    "INSERT INTO objects (entry, uri, entity) VALUES (last_insert_rowid(), ?, ?)")
                for row in rows {
                    try entry.execute([
                        .text(row.title), .text(row.text), .text(row.keywords.joined(separator: " ")),
                    ])
                    try object.execute([.text(row.uri), .text(row.entityName)])
                }
                if let position {
                    try connection.cachedStatement("INSERT OR REPLACE INTO state (key, value) VALUES ('position', ?)")
                        .execute([.blob(Array(position))])
                }
            }
        }
    }

    /// Removes every entry and the position, in one transaction.
    public func removeAll() throws {
        try run("emptying") { connection in
            try connection.transaction {
                try connection.execute(script: "DELETE FROM entries; DELETE FROM objects; DELETE FROM state;")
            }
        }
    }

    /// The position the last ``apply(upserting:removing:position:)`` set; `nil` before any.
    public func position() throws -> Data? {
        try run("reading") { connection in
            let values = try connection.cachedStatement("SELECT value FROM state WHERE key = 'position'").rows {
                $0.value(at: 0)
            }
            guard case .blob(let bytes)? = values.first else { return nil }
            return Data(bytes)
        }
    }

    /// How many objects the index holds.
    public func count() throws -> Int {
        try run("reading") { connection in
            let values = try connection.cachedStatement("SELECT count(*) FROM objects").rows { $0.value(at: 0) }
            guard case .integer(let count)? = values.first else { return 0 }
            return Int(count)
        }
    }

    /// The objects `query` finds, best first, at most `limit`.
    ///
    /// The query is FTS5's syntax: words all of which an entry must hold (`photo india`), a
    /// phrase in double quotes, a word prefix (`ind*`), `OR`, `NOT` and parentheses. Case and
    /// diacritics do not matter. Titles weigh ten times and keywords five times the text.
    ///
    /// - Throws: ``SearchError`` with code ``SearchError/Code/invalidQuery`` naming the query
    ///   when it is not valid syntax.
    public func search(_ query: String, limit: Int = 20) throws -> [Hit] {
        try run("searching") { connection in
            do {
                return try connection.cachedStatement(
                    """
                    SELECT objects.uri, objects.entity, entries.title,
                        snippet(entries, -1, '[', ']', '…', 12), bm25(entries, 10.0, 1.0, 5.0)
                    FROM entries JOIN objects ON objects.entry = entries.rowid
                    WHERE entries MATCH ? ORDER BY bm25(entries, 10.0, 1.0, 5.0) LIMIT ?
                    """
                ).rows([.text(query), .integer(Int64(max(limit, 0)))]) { row in
                    (
                        uri: Self.text(row.value(at: 0)), entityName: Self.text(row.value(at: 1)),
                        title: Self.text(row.value(at: 2)), snippet: Self.text(row.value(at: 3)),
                        score: Self.score(row.value(at: 4))
                    )
                }.map { row in
                    guard let uri = URL(string: row.uri), uri.scheme != nil else {
                        throw SearchError(
                            code: .corrupt,
                            message: "The search index '\(url.path)' holds '\(row.uri)', which is not an object URI.")
                    }
                    return Hit(
                        uri: uri, entityName: row.entityName, title: row.title, snippet: row.snippet, score: row.score)
                }
            } catch let error as SQLiteError where error.code == SQLITE_ERROR {
                // The statement is fixed and valid: a plain error while it runs is FTS5 refusing the query.
                throw SearchError(
                    code: .invalidQuery,
                    message:
                        "The search query '\(query)' is not valid: \(error.message.replacingOccurrences(of: "fts5: ", with: ""))."
                )
            }
        }
    }

    private func remove(_ uri: String, on connection: SQLiteConnection) throws {
        let entries = try connection.cachedStatement("SELECT entry FROM objects WHERE uri = ?").rows([.text(uri)]) {
            $0.value(at: 0)
        }
        guard case .integer(let entry)? = entries.first else { return }
        try connection.cachedStatement("DELETE FROM entries WHERE rowid = ?").execute([.integer(entry)])
        try connection.cachedStatement("DELETE FROM objects WHERE entry = ?").execute([.integer(entry)])
    }

    private func run<T>(_ action: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try lock.withLock { try body(connection) }
        } catch let error as SearchError {
            throw error
        } catch {
            throw Self.error(error, doing: action, url: url)
        }
    }

    private static func error(_ error: any Error, doing action: String, url: URL) -> SearchError {
        let sqlite = error as? SQLiteError
        let corrupt = sqlite.map { $0.message.contains("not a database") || $0.message.contains("malformed") } ?? false
        return SearchError(
            code: corrupt ? .corrupt : .io,
            message: "Failed \(action) the search index '\(url.path)': \(sqlite?.message ?? "\(error)").")
    }

    private static func text(_ value: SQLiteValue) -> String {
        if case .text(let text) = value { return text }
        return ""
    }

    /// bm25 is lower for better matches: the score is its negation.
    private static func score(_ value: SQLiteValue) -> Double {
        if case .real(let rank) = value { return -rank }
        return 0
    }
}
