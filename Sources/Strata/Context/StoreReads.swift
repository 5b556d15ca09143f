/// A context's reads of one store: from the store's view in the context's query generation
/// when it has one, else from the store itself.
struct StoreReads {
    let store: any IncrementalStore
    let view: (any StoreGeneration)?

    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try view?.execute(request) ?? store.execute(request)
    }

    func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        if let view { return try view.snapshot(for: objectID) }
        return try store.snapshot(for: objectID)
    }

    func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
        try view?.snapshots(for: objectIDs) ?? store.snapshots(for: objectIDs)
    }

    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try view?.relatedObjectIDs(of: objectID, relationship: relationship)
            ?? store.relatedObjectIDs(of: objectID, relationship: relationship)
    }

    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try view?.relatedObjectIDs(ofEach: objectIDs, relationship: relationship)
            ?? store.relatedObjectIDs(ofEach: objectIDs, relationship: relationship)
    }
}
