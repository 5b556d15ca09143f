import Foundation
import Strata

/// One line of a journal: what one save changed. The first entry holds the store's metadata;
/// later ones hold it when a save changed it.
struct JournalEntry: Codable {
    /// A saved object: its values, version and to-many members, IDs as their URI strings.
    struct Row: Codable {
        var id: String
        var values: [String: AttributeValue]
        var version: Int64
        var toMany: [String: [String]]
    }

    var metadata: StoreMetadata?
    var nextReference: Int64
    var upserts: [Row] = []
    var deletions: [String] = []
}

/// What a journal holds once its entries are replayed.
struct JournalContents: Sendable {
    /// A saved object and its to-many members.
    struct Row: Sendable {
        var snapshot: Snapshot
        var toMany: [String: [ObjectID]]
    }

    var metadata: StoreMetadata
    var rows: [ObjectID: Row] = [:]
    var nextReference: Int64 = 1

    /// Applies `entry`, which line `line` of the file at `path` held.
    mutating func apply(_ entry: JournalEntry, line: Int, path: String) throws {
        func objectID(_ text: String) throws -> ObjectID {
            guard let id = ObjectID(uriString: text) else {
                throw StoreError(
                    code: .corrupt, message: "Line \(line) of '\(path)' holds '\(text)', which is not an object ID.")
            }
            return id
        }
        if let saved = entry.metadata { metadata = saved }
        nextReference = entry.nextReference
        for row in entry.upserts {
            let id = try objectID(row.id)
            rows[id] = Row(
                snapshot: Snapshot(objectID: id, values: row.values, version: row.version),
                toMany: try row.toMany.mapValues { try $0.map(objectID) })
        }
        for deletion in entry.deletions { rows[try objectID(deletion)] = nil }
    }
}

extension JournalEntry.Row {
    init(_ row: JournalContents.Row) {
        self.init(
            id: row.snapshot.objectID.uriString, values: row.snapshot.values.dictionary,
            version: row.snapshot.version, toMany: row.toMany.mapValues { $0.map(\.uriString) })
    }
}
