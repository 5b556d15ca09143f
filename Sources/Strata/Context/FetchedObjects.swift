/// The objects a fetch request matches, as they change: an asynchronous sequence of arrays of
/// typed objects, made by ``ManagedObjectContext/objects(of:)``.
///
/// Objects belong to their context's queue, so the sequence is for a main-queue context,
/// iterated on the main actor: how an interface keeps a list up to date. (A private-queue
/// context's queue runs no tasks; follow its fetch with ``ManagedObjectContext/results(of:sectionKeyPath:)``,
/// whose updates carry object IDs.)
///
/// ```swift
/// @MainActor func showShelf(_ context: ManagedObjectContext) async throws {
///     let request = FetchRequest<Book>(predicate: #Predicate { $0.pages > 100 }, sortBy: [SortDescriptor(\.title)])
///     for try await books in context.objects(of: request) {
///         render(books.map(\.title))
///     }
/// }
/// ```
///
/// The first array holds the current results; each later one the results after a change of the
/// context that touched them (an insert, change, deletion, refresh, save or merge). A consumer
/// slower than the changes gets the newest results only, never a stale array. Iterated
/// anywhere but on the context's queue, the sequence throws ``ContextError/Code/wrongContext``.
/// It ends when the iterating task is cancelled or the context goes away, and throws what a
/// fetch threw.
public struct FetchedObjects<Object: ManagedObject>: AsyncSequence, Sendable {
    public typealias Element = [Object]
    public typealias Failure = any Error

    let updates: AsyncThrowingStream<FetchedResultsUpdate, any Error>
    weak var context: ManagedObjectContext?

    public func makeAsyncIterator() -> Iterator {
        Iterator(updates: updates.makeAsyncIterator(), context: context)
    }

    /// Turns each update's object IDs into the context's objects, on the context's queue.
    public struct Iterator: AsyncIteratorProtocol {
        var updates: AsyncThrowingStream<FetchedResultsUpdate, any Error>.AsyncIterator
        weak var context: ManagedObjectContext?

        /// The next results, read on the caller's actor, which must run on the context's queue.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [Object]? {
            guard let update = try await updates.next(isolation: actor), let context else { return nil }
            guard context.isOnQueue else {
                throw ContextError(
                    code: .wrongContext,
                    message:
                        "The objects of ManagedObjectContext\(context.name.map { " '\($0)'" } ?? "") were iterated "
                        + "outside its queue; iterate them on the main actor for a main-queue context.")
            }
            return try update.objectIDs.map { objectID in
                let object = context.object(with: objectID)
                guard let typed = object as? Object else {
                    throw ContextError(
                        code: .wrongClass,
                        message: "\(objectID) is a \(type(of: object)), not a \(Object.self); register \(Object.self).")
                }
                return typed
            }
        }

        #if compiler(>=6.2)
            /// The next results, read on the caller's actor; see ``next(isolation:)``.
            public nonisolated(nonsending) mutating func next() async throws -> [Object]? {
                try await next(isolation: #isolation)
            }
        #else
            /// The next results; see ``next(isolation:)``.
            public mutating func next() async throws -> [Object]? {
                try await next(isolation: nil)
            }
        #endif
    }
}

extension ManagedObjectContext {
    /// The objects `request` matches, as they change, typed; see ``FetchedObjects``.
    ///
    /// Built on ``results(of:sectionKeyPath:)``, which gives the same results as object IDs
    /// with the changes between updates, from any task.
    public func objects<Object: ManagedObject>(of request: FetchRequest<Object>) -> FetchedObjects<Object> {
        FetchedObjects(updates: results(of: request, buffering: .bufferingNewest(1)), context: self)
    }
}
