/// The objects a fetch returned, in order. When the request had a batch size, only the IDs are
/// fetched at first, and each batch's values are loaded the first time one of its objects is
/// used.
///
/// Use it on its context's queue, like the objects.
public struct FetchedResults<Element: ManagedObject>: RandomAccessCollection {
    private let context: ManagedObjectContext
    private let objectIDs: [ObjectID]
    private let batchSize: Int
    private let loadedBatches: LoadedBatches

    init(context: ManagedObjectContext, objectIDs: [ObjectID], batchSize: Int) {
        self.context = context
        self.objectIDs = objectIDs
        self.batchSize = batchSize
        self.loadedBatches = LoadedBatches()
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { objectIDs.count }

    public subscript(position: Int) -> Element {
        if batchSize > 0 {
            let batch = position / batchSize
            if loadedBatches.indices.insert(batch).inserted {
                let range = (batch * batchSize)..<Swift.min((batch + 1) * batchSize, objectIDs.count)
                context.prefetchSnapshots(for: Array(objectIDs[range]))
            }
        }
        let object = context.object(with: objectIDs[position])
        guard let typed = object as? Element else {
            preconditionFailure("\(object.objectID) is a \(type(of: object)), not a \(Element.self).")
        }
        return typed
    }

    /// Which batches are loaded; shared by copies of the collection.
    private final class LoadedBatches {
        var indices: Set<Int> = []
    }
}

@available(*, unavailable)
extension FetchedResults: Sendable {}
