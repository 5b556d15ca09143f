/// The new ID of every object a migration copies, by its ID in the source store. It keeps two
/// references per object, sorted by the source's, rather than a dictionary of IDs, so that a
/// store of a million objects costs tens of megabytes here, not hundreds.
struct MigrationIDMap {
    /// One object: its reference in the source and its new reference.
    struct Entry {
        let source: ObjectID.Reference
        let new: ObjectID.Reference
    }

    /// The objects of one entity, sorted by source reference.
    struct EntityTable {
        let entityName: String
        /// Where the entity's objects start in the copying order.
        let firstOrdinal: Int
        let entries: [Entry]
    }

    let sourceStore: String
    let destinationStore: String
    private(set) var tables: [EntityTable] = []
    private var tableIndexByEntity: [String: Int] = [:]

    init(sourceStore: String, destinationStore: String) {
        self.sourceStore = sourceStore
        self.destinationStore = destinationStore
    }

    /// The number of objects mapped.
    var count: Int { tables.last.map { $0.firstOrdinal + $0.entries.count } ?? 0 }

    /// Adds the objects of `entityName`; returns `false` when a source reference repeats.
    mutating func add(entityName: String, entries: consuming [Entry]) -> Bool {
        var sorted = entries
        sorted.sort { Self.precedes($0.source, $1.source) }
        guard zip(sorted, sorted.dropFirst()).allSatisfy({ $0.source != $1.source }),
            tableIndexByEntity[entityName] == nil
        else { return false }
        tableIndexByEntity[entityName] = tables.count
        tables.append(EntityTable(entityName: entityName, firstOrdinal: count, entries: sorted))
        return true
    }

    /// The new ID of the source object `id` and its place in the copying order; `nil` when the
    /// map does not hold it.
    func lookUp(_ id: ObjectID) -> (newID: ObjectID, ordinal: Int)? {
        guard let tableIndex = tableIndexByEntity[id.entityName] else { return nil }
        let table = tables[tableIndex]
        var low = 0
        var high = table.entries.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(table.entries[middle].source, id.reference) { low = middle + 1 } else { high = middle }
        }
        guard low < table.entries.count, table.entries[low].source == id.reference else { return nil }
        return (newID(table.entityName, table.entries[low].new), table.firstOrdinal + low)
    }

    /// The source ID of an entry of `entityName`.
    func sourceID(_ entityName: String, _ entry: Entry) -> ObjectID {
        ObjectID(storeIdentifier: sourceStore, entityName: entityName, reference: entry.source)
    }

    /// The new ID of an entry of `entityName`.
    func newID(_ entityName: String, _ reference: ObjectID.Reference) -> ObjectID {
        ObjectID(storeIdentifier: destinationStore, entityName: entityName, reference: reference)
    }

    /// A total order of references: integers, then strings, then temporary ones.
    private static func precedes(_ first: ObjectID.Reference, _ second: ObjectID.Reference) -> Bool {
        switch (first, second) {
        case (.integer(let left), .integer(let right)): return left < right
        case (.string(let left), .string(let right)): return left < right
        case (.temporary(let left), .temporary(let right)): return left.uuidString < right.uuidString
        default: return rank(first) < rank(second)
        }
    }

    private static func rank(_ reference: ObjectID.Reference) -> Int {
        switch reference {
        case .integer: 0
        case .string: 1
        case .temporary: 2
        }
    }
}
