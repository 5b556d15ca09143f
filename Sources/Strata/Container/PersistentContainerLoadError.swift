/// The stores a ``PersistentContainer`` could not load, each with the error that stopped it.
public struct PersistentContainerLoadError: Error, CustomStringConvertible {
    /// One store that failed to load.
    public struct Failure: Sendable {
        /// The store's description.
        public var storeDescription: PersistentStoreDescription
        /// Why it failed.
        public var error: any Error
    }

    /// Every failed store, in the order of the container's descriptions.
    public var failures: [Failure]

    /// One line per failed store.
    public var description: String {
        failures.map { "Cannot load the \($0.storeDescription): \($0.error)" }.joined(separator: "\n")
    }
}
