import Foundation

extension PersistentStoreCoordinator {
    /// Removes and closes every store once the saves and batch requests in flight to it have
    /// ended: how a server shuts down without cutting a save in half. A save already writing a
    /// store finishes; one that reaches a store after it was removed fails with
    /// ``StoreError/Code/unknownStore`` and writes nothing. Watching for remote changes stops
    /// with the last store that posts them.
    ///
    /// - Parameter timeout: How long to wait, in all, for the saves in flight.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/inUse`` naming the stores a save still
    ///   held when the time was up: they stay added, since closing a store under a save could
    ///   lose it. Every other store is removed.
    public func removeAllStores(waitingUpTo timeout: Duration) throws {
        let (seconds, attoseconds) = max(timeout, .zero).components
        let deadline = Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        var busy: [any IncrementalStore] = []
        for store in stores {
            let gate = writeGate(of: store.identifier)
            guard gate.lock(before: deadline) else {
                busy.append(store)
                continue
            }
            defer { gate.unlock() }
            // Another caller may have removed it meanwhile: then it is gone, as asked.
            try? remove(store)
        }
        guard busy.isEmpty else {
            throw StoreError(
                code: .inUse,
                message: "A save still held \(busy.map(\.nameInMessages).joined(separator: ", ")) after \(timeout): "
                    + "\(busy.count == 1 ? "it stays" : "they stay") added; the other stores were removed.")
        }
    }
}
