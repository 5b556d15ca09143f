/// Which destination objects each entity mapping of a migration made from each source object
/// (Core Data's association tables).
///
/// A mapping that makes one object per source object keeps two references per object,
/// sorted by the source's, rather than a dictionary of IDs, so that a store of a million
/// objects costs tens of megabytes here, not hundreds. What migration policies make, any
/// number of objects per source object, is kept by ID: those objects are held in memory
/// anyway until they are saved.
final class MigrationAssociations {
    /// One object: its reference in the source and its new reference.
    struct Entry {
        let source: ObjectID.Reference
        let new: ObjectID.Reference
    }

    /// The objects one entity mapping made, sorted by source reference.
    struct Table {
        let mappingName: String
        let sourceEntityName: String
        let destinationEntityName: String
        /// Where the table's objects start in the copying order.
        let firstOrdinal: Int
        let entries: [Entry]
    }

    let sourceStore: String
    let destinationStore: String
    private(set) var tables: [Table] = []

    /// The new ID of every object a mapping made one for whose ID changed, by its source ID.
    var changedIDsBySourceID: [ObjectID: ObjectID] {
        var ids: [ObjectID: ObjectID] = [:]
        for table in tables {
            let source = ObjectID.Namespace(storeIdentifier: sourceStore, entityName: table.sourceEntityName)
            let new = ObjectID.Namespace(storeIdentifier: destinationStore, entityName: table.destinationEntityName)
            for entry in table.entries {
                let sourceID = ObjectID(source, reference: entry.source)
                let newID = ObjectID(new, reference: entry.new)
                if newID != sourceID { ids[sourceID] = newID }
            }
        }
        return ids
    }
    private var tableIndexByMapping: [String: Int] = [:]
    /// The first table made from each source entity: how an object is found when no mapping
    /// is named.
    private var tableIndexBySourceEntity: [String: Int] = [:]
    /// The source entities a mapping without a source filter took every object of.
    private var completeSourceEntities: Set<String> = []
    /// What migration policies associated with each source object, by mapping name, with
    /// each object's place in the copying order.
    private var policyAssociations: [String: [ObjectID: [(newID: ObjectID, place: Int)]]] = [:]
    /// The first policy mapping of each source entity that has no table.
    private var policyMappingBySourceEntity: [String: String] = [:]
    /// How many objects migration policies made.
    private(set) var policyObjectCount = 0

    init(sourceStore: String, destinationStore: String) {
        self.sourceStore = sourceStore
        self.destinationStore = destinationStore
    }

    /// The number of objects the tables hold.
    var tableObjectCount: Int { tables.last.map { $0.firstOrdinal + $0.entries.count } ?? 0 }

    /// The number of objects made.
    var count: Int { tableObjectCount + policyObjectCount }

    /// Adds the objects the entity mapping `mappingName` made, every object of
    /// `sourceEntityName` when `takesEveryObject`; returns `false` when a source reference
    /// repeats or the mapping already has a table.
    func add(
        mappingName: String, sourceEntityName: String, destinationEntityName: String, takesEveryObject: Bool,
        entries: consuming [Entry]
    ) -> Bool {
        var sorted = entries
        sorted.sort { Self.precedes($0.source, $1.source) }
        guard zip(sorted, sorted.dropFirst()).allSatisfy({ $0.source != $1.source }),
            tableIndexByMapping[mappingName] == nil
        else { return false }
        tableIndexByMapping[mappingName] = tables.count
        if tableIndexBySourceEntity[sourceEntityName] == nil {
            tableIndexBySourceEntity[sourceEntityName] = tables.count
        }
        if takesEveryObject { completeSourceEntities.insert(sourceEntityName) }
        tables.append(
            Table(
                mappingName: mappingName, sourceEntityName: sourceEntityName,
                destinationEntityName: destinationEntityName, firstOrdinal: tableObjectCount, entries: sorted))
        return true
    }

    /// Whether a mapping took every object of the source entity `entityName`, so that an
    /// object of it that no mapping made is one the source does not hold.
    func takesEveryObject(ofEntity entityName: String) -> Bool { completeSourceEntities.contains(entityName) }

    /// Counts an object a migration policy made; returns its place in the copying order,
    /// after every table's.
    func addPolicyObject() -> Int {
        policyObjectCount += 1
        return tableObjectCount + policyObjectCount - 1
    }

    /// Associates the object `newID` at `place` with the source object `sourceID` for the
    /// policy mapping `mappingName`.
    func associate(_ sourceID: ObjectID, with newID: ObjectID, at place: Int, mapping mappingName: String) {
        policyAssociations[mappingName, default: [:]][sourceID, default: []].append((newID, place))
        if tableIndexBySourceEntity[sourceID.entityName] == nil
            && policyMappingBySourceEntity[sourceID.entityName] == nil
        {
            policyMappingBySourceEntity[sourceID.entityName] = mappingName
        }
    }

    /// The object made from the source object `id`, with its place in the copying order: by
    /// the entity mapping named `mappingName`, or, when it is `nil`, by the first mapping of
    /// the object's entity; the first one when a migration policy made several. `nil` when
    /// none was made.
    func lookUp(_ id: ObjectID, mapping mappingName: String? = nil) -> (newID: ObjectID, place: Int)? {
        if let mappingName, let associated = policyAssociations[mappingName] { return associated[id]?.first }
        guard let index = mappingName.map({ tableIndexByMapping[$0] }) ?? tableIndexBySourceEntity[id.entityName]
        else {
            guard mappingName == nil, let policyMapping = policyMappingBySourceEntity[id.entityName] else { return nil }
            return policyAssociations[policyMapping]?[id]?.first
        }
        let table = tables[index]
        guard table.sourceEntityName == id.entityName else { return nil }
        var low = 0
        var high = table.entries.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(table.entries[middle].source, id.reference) { low = middle + 1 } else { high = middle }
        }
        guard low < table.entries.count, table.entries[low].source == id.reference else { return nil }
        return (newID(of: table, table.entries[low].new), table.firstOrdinal + low)
    }

    /// Every object made from the source object `id`, as ``lookUp(_:mapping:)`` finds the
    /// first: a migration policy may have made several.
    func lookUpAll(_ id: ObjectID, mapping mappingName: String? = nil) -> [(newID: ObjectID, place: Int)] {
        let policyMapping = mappingName ?? policyMappingBySourceEntity[id.entityName]
        if let policyMapping, let associated = policyAssociations[policyMapping],
            mappingName != nil || tableIndexBySourceEntity[id.entityName] == nil
        {
            return associated[id] ?? []
        }
        return lookUp(id, mapping: mappingName).map { [$0] } ?? []
    }

    /// The source ID of an entry of `table`.
    func sourceID(of table: Table, _ entry: Entry) -> ObjectID {
        ObjectID(storeIdentifier: sourceStore, entityName: table.sourceEntityName, reference: entry.source)
    }

    /// The new ID of an entry of `table`.
    func newID(of table: Table, _ reference: ObjectID.Reference) -> ObjectID {
        ObjectID(storeIdentifier: destinationStore, entityName: table.destinationEntityName, reference: reference)
    }

    /// A total order of references: integers, then strings, then temporary ones.
    static func precedes(_ first: ObjectID.Reference, _ second: ObjectID.Reference) -> Bool {
        switch (first, second) {
        case (.integer(let left), .integer(let right)): return left < right
        case (.string(let left), .string(let right)): return left < right
        case (.temporary(let left), .temporary(let right)): return left.uuidString < right.uuidString
        default: return rank(first) < rank(second)
        }
    }

    /// The kind of a reference, in the order ``precedes(_:_:)`` sorts kinds.
    static func rank(_ reference: ObjectID.Reference) -> Int {
        switch reference {
        case .integer: 0
        case .string: 1
        case .temporary: 2
        }
    }
}
