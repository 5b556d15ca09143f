/// The objects a fetch returned, in order. When the request had a batch size, only the IDs are
/// fetched at first, and a batch's values are loaded when one of its objects is used. Using an
/// object of another batch then makes the unchanged objects of the batch used before faults
/// again, so that a batched fetch read from start to end keeps about one batch of values in
/// memory; an object of a released batch loads its values again when it is next used.
///
/// The collection holds the objects the fetch registered. An object that has left the context
/// since (after ``ManagedObjectContext/reset()``, say) is given as the context's object for the
/// same ID, as ``ManagedObjectContext/object(with:)`` gives it.
///
/// Use it on its context's queue, like the objects.
public struct FetchedResults<Element: ManagedObject>: RandomAccessCollection {
    private let context: ManagedObjectContext
    /// The objects as the fetch registered them; one that has left the context since is
    /// looked up again by its ID.
    private let objects: [ManagedObject]
    private let batchSize: Int
    private let loadedBatches: LoadedBatches
    /// Kept alive with the results, so that their objects' to-many faults fire together.
    private let cohort: FetchCohort?

    init(context: ManagedObjectContext, objects: [ManagedObject], batchSize: Int, cohort: FetchCohort?) {
        self.context = context
        self.objects = objects
        self.batchSize = batchSize
        self.loadedBatches = LoadedBatches()
        self.cohort = cohort
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { objects.count }

    public subscript(position: Int) -> Element {
        if batchSize > 0 {
            let batch = position / batchSize
            if loadedBatches.current != batch {
                if let previous = loadedBatches.current { release(objects[range(of: previous)]) }
                loadedBatches.current = batch
                context.prefetchSnapshots(for: objects[range(of: batch)].map(\.objectID))
            }
        }
        var object = objects[position]
        if object.managedObjectContext !== context || object.isDiscarded {
            object = context.object(with: object.objectID)
        }
        guard let typed = object as? Element else {
            preconditionFailure("\(object.objectID) is a \(type(of: object)), not a \(Element.self).")
        }
        return typed
    }

    /// The positions of the objects of batch `batch`.
    private func range(of batch: Int) -> Range<Int> {
        (batch * batchSize)..<Swift.min((batch + 1) * batchSize, objects.count)
    }

    /// Makes the unchanged `objects` (or the context's objects for their IDs, once they have
    /// left it) faults again and forgets their unused snapshots.
    private func release(_ objects: ArraySlice<ManagedObject>) {
        for object in objects {
            context.graph.dropSnapshot(of: object.objectID)
            let current = object.managedObjectContext === context ? object : context.registered[object.objectID]
            current?.releaseValuesIfUnchanged()
        }
    }

    /// The batch whose values are loaded; shared by copies of the collection.
    private final class LoadedBatches {
        var current: Int?
    }
}

@available(*, unavailable)
extension FetchedResults: Sendable {}
