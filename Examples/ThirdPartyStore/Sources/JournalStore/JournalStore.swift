import Foundation
import Strata
import Synchronization

/// An incremental store over one plain text file (``JournalFile``): every saved object is held
/// in memory, and each save appends one line to the file and commits it. Written from
/// Strata's docs/STORES.md alone, as any third-party store would be.
///
/// Open it through ``Strata/StoreType/journal``.
public final class JournalStore: IncrementalStore {
    public let typeName = StoreType.journal.name
    public let identifier: String
    public var url: URL? { fileURL }
    public let configurationName: String?
    public let options: StoreOptions
    /// One process writes the file at a time; nothing beyond every store's obligations.
    public let capabilities: StoreCapabilities = []
    /// Every predicate is evaluated here, with Strata's evaluator over the objects in memory.
    public let predicateFeatures = PredicateFeatures.all

    private struct State {
        var contents: JournalContents
        /// How many bytes of the file hold saved entries; 0 before the file exists.
        var committedLength: Int
        /// The file's lock, while some coordinator has the store or it saved since its last close.
        var lock: JournalLock?
        /// How many coordinators have the store added.
        var attachments = 0
        /// The device and inode of the file the store last read or wrote; `nil` before it exists.
        var fileIdentity: [UInt64]?
    }

    private let fileURL: URL
    private let schema: ModelSchema
    private let entityNames: Set<String>
    private let state: Mutex<State>

    init(request: StoreOpenRequest, url: URL, contents: JournalContents, committedLength: Int) {
        self.fileURL = url
        self.identifier = contents.metadata.storeIdentifier
        self.configurationName = request.configurationName
        self.options = request.options
        self.schema = request.model.schema
        self.entityNames = Set(request.model.entityNames(inConfiguration: request.configurationName))
        self.state = Mutex(
            State(contents: contents, committedLength: committedLength, fileIdentity: JournalFile.identity(at: url)))
    }

    /// Opens the journal `request` asks for, or a new one when there is no file or it is empty.
    static func open(_ request: StoreOpenRequest) throws -> JournalStore {
        guard let url = request.url else {
            throw StoreError(code: .unsupported, message: "A journal store needs a file URL.")
        }
        try request.model.freeze()
        if let (contents, committed) = try JournalFile.read(url) {
            try request.model.checkCompatible(
                configuration: request.configurationName, metadata: contents.metadata, place: "'\(url.path)'")
            return JournalStore(request: request, url: url, contents: contents, committedLength: committed)
        }
        guard !request.options.isReadOnly else {
            throw StoreError(code: .io, message: "There is no journal store at '\(url.path)' to open read-only.")
        }
        let metadata = StoreMetadata(
            storeType: StoreType.journal.name, storeIdentifier: request.identifierForNewStore, model: request.model,
            configuration: request.configurationName, userInfo: request.userInfoForNewStore)
        return JournalStore(
            request: request, url: url, contents: JournalContents(metadata: metadata), committedLength: 0)
    }

    public var metadata: StoreMetadata { state.withLock { $0.contents.metadata } }

    /// Takes the file's lock, unless the store is read-only or has it already.
    ///
    /// - Throws: `inUse` when another writer holds the file, or changed it while this store
    ///   was closed (its objects in memory are then out of date).
    public func willAttach() throws {
        try state.withLock { state in
            if !options.isReadOnly { try holdLock(&state) }
            state.attachments += 1
        }
    }

    /// Gives the file's lock up when no coordinator has the store any more.
    public func close() {
        state.withLock { state in
            state.attachments = max(state.attachments - 1, 0)
            if state.attachments == 0 { state.lock = nil }
        }
    }

    /// Takes the file's lock if the store does not hold it, and checks that nobody wrote the
    /// file since the store last read or wrote it, nor put another file in its place.
    private func holdLock(_ state: inout State) throws {
        if state.lock == nil {
            let lock = try JournalLock.acquire(for: fileURL)
            guard JournalFile.committedLength(at: fileURL) == state.committedLength else {
                throw StoreError(
                    code: .inUse,
                    message: "The journal store at '\(fileURL.path)' was changed by another writer while this one "
                        + "was closed, so its objects are out of date; open the file again.")
            }
            state.lock = lock
        }
        guard JournalFile.identity(at: fileURL) == state.fileIdentity else {
            throw StoreError(
                code: .inUse,
                message: "The journal store file '\(fileURL.path)' was replaced or removed by another program while "
                    + "the store was open, so its objects are out of date and a save would write into the other "
                    + "file; remove the store and open the file again.")
        }
    }

    public func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        let entity = try entitySchema(named: request.entityName)
        let kinds = Set(request.includesSubentities ? [entity.name] + entity.descendantNames : [entity.name])
        let rows = state.withLock { $0.contents.rows }
        var matching = rows.values.filter { kinds.contains($0.snapshot.objectID.entityName) }
            .sorted { Self.storageOrder($0.snapshot.objectID, $1.snapshot.objectID) }
            .map { RowResolver(row: $0, rows: rows, schema: schema) }
        if let predicate = request.predicate { matching = try predicate.filter(matching) }
        if !request.sortDescriptors.isEmpty {
            matching = try FetchSortDescriptor.sorted(matching, by: request.sortDescriptors)
        }
        let limit = request.fetchLimit.flatMap { $0 > 0 ? $0 : nil } ?? Int.max
        let page = matching.dropFirst(max(request.fetchOffset, 0)).prefix(limit)
        switch request.resultType {
        case .count: return .count(page.count)
        case .objectIDs: return .objectIDs(page.map(\.row.snapshot.objectID))
        case .snapshots: return .snapshots(page.map(\.row.snapshot))
        }
    }

    public func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        state.withLock { $0.contents.rows[objectID]?.snapshot }
    }

    public func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        let entity = try entitySchema(named: objectID.entityName)
        guard entity.relationshipsByName[relationship]?.isToMany == true else {
            throw StoreError(
                code: .unknownObject, message: "Entity '\(entity.name)' has no to-many relationship '\(relationship)'.")
        }
        guard let row = state.withLock({ $0.contents.rows[objectID] }) else {
            throw StoreError(
                code: .unknownObject, message: "The journal store at '\(fileURL.path)' has no \(objectID).")
        }
        return row.toMany[relationship] ?? []
    }

    public func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        for name in Set(entityNames) { _ = try entitySchema(named: name) }
        return state.withLock { state in
            entityNames.map { name in
                defer { state.contents.nextReference += 1 }
                return ObjectID(
                    storeIdentifier: identifier, entityName: name, reference: .integer(state.contents.nextReference))
            }
        }
    }

    /// Checks versions and uniqueness, builds the entry, asks for the decision, and appends the
    /// change set as one entry: the commit. The coordinator has already refused read-only
    /// stores and validated the changes (docs/STORES.md). A save to this store alone is this
    /// with a decision that always returns (``IncrementalStore/save(_:)``'s default).
    public func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "The journal store at '\(fileURL.path)' was opened read-only.")
        }
        try state.withLock { state in
            try holdLock(&state)
            let rows = state.contents.rows
            try changes.checkVersions { rows[$0]?.snapshot.version }
            var scan = UniqueValuesScan { keys in
                let spanned = Set(keys.entityNames)
                return rows.values.map(\.snapshot).filter { spanned.contains($0.objectID.entityName) }
            }
            try changes.checkUniqueness(schema: schema, storeName: "The journal store at '\(fileURL.path)'") {
                try scan.matches($0, $1)
            }
            var next = state.contents
            for change in changes.inserted {
                next.rows[change.objectID] = .init(
                    snapshot: Snapshot(objectID: change.objectID, values: change.values, version: 1),
                    toMany: change.toManyRelationships)
                // An ID another opening handed out (a save completed from a coordinator's
                // save log) is never handed out again.
                if case .integer(let reference) = change.objectID.reference, reference >= next.nextReference {
                    next.nextReference = reference + 1
                }
            }
            var entry = JournalEntry(nextReference: next.nextReference)
            for change in changes.updated {
                guard var row = rows[change.objectID] else { continue }
                row.snapshot = Snapshot(
                    objectID: change.objectID, values: change.values, version: row.snapshot.version + 1)
                row.toMany.merge(change.toManyRelationships) { _, new in new }
                next.rows[change.objectID] = row
            }
            for deletion in changes.deleted { next.rows[deletion.objectID] = nil }
            entry.upserts = (changes.inserted + changes.updated).compactMap { next.rows[$0.objectID] }
                .map(JournalEntry.Row.init)
            entry.deletions = changes.deleted.map(\.objectID.uriString)
            if let userInfo = changes.userInfo { next.metadata.userInfo = userInfo }
            if changes.userInfo != nil || state.committedLength == 0 { entry.metadata = next.metadata }
            try decision()
            state.committedLength =
                state.committedLength == 0
                ? try JournalFile.create(fileURL, with: entry)
                : try JournalFile.append(entry, to: fileURL, after: state.committedLength)
            state.fileIdentity = JournalFile.identity(at: fileURL)
            state.contents = next
        }
    }

    private func entitySchema(named name: String) throws -> EntitySchema {
        guard let entity = schema.entitiesByName[name], entityNames.contains(name) else {
            throw StoreError(
                code: .unknownEntity, message: "Entity '\(name)' is not in the journal store at '\(fileURL.path)'.")
        }
        return entity
    }

    /// Objects in a stable order: by entity, then by reference.
    private static func storageOrder(_ lhs: ObjectID, _ rhs: ObjectID) -> Bool {
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName }
        return lhs.uriString < rhs.uriString
    }
}

/// Lets Strata's evaluator read a row, following relationships to the other rows.
private struct RowResolver: KeyValueResolving {
    let row: JournalContents.Row
    let rows: [ObjectID: JournalContents.Row]
    let schema: ModelSchema

    func resolvedValue(forKey key: String) -> ResolvedValue? {
        guard let entity = schema.entitiesByName[row.snapshot.objectID.entityName] else { return nil }
        if let relationship = entity.relationshipsByName[key] {
            if relationship.isToMany {
                let members = (row.toMany[key] ?? []).compactMap { rows[$0] }
                return .objects(members.map { RowResolver(row: $0, rows: rows, schema: schema) })
            }
            guard case .objectID(let target)? = row.snapshot.values[key], let targetRow = rows[target] else {
                return .value(.null)
            }
            return .object(RowResolver(row: targetRow, rows: rows, schema: schema))
        }
        guard entity.attributesByName[key] != nil else { return nil }
        return .value(row.snapshot.values[key] ?? .null)
    }

    var objectIdentity: AttributeValue { .objectID(row.snapshot.objectID) }
}
