/// The bookkeeping behind ``IncrementalStore/remoteHistory(after:)`` for a store that numbers
/// its history transactions: the numbers this store instance recorded, and the commit counter
/// it last saw.
///
/// The store runs each write that records history in ``recording(_:)`` and calls the `note` it
/// is given with the transaction's number inside the write, before it commits, so that no
/// reader can see the transaction before it is known as the store's own; when the write fails,
/// the number is forgotten, so that another writer's transaction given the same number is not
/// taken for the store's own. (``noteRecorded(_:)`` and ``forgetRecorded(_:)`` are the two
/// halves, for a store that keeps the books itself.) It answers
/// ``IncrementalStore/remoteHistory(after:)`` with ``remoteHistory(after:counter:transactions:)``.
public final class RemoteHistoryWatch: Sendable {
    private struct State {
        var recorded: Set<Int64> = []
        var counter: Int64?
    }

    private let state = Locked(State())

    /// Creates a watch that has seen nothing.
    public init() {}

    /// Notes that this store instance records transaction `number`.
    public func noteRecorded(_ number: Int64) {
        state.withLock { _ = $0.recorded.insert(number) }
    }

    /// Runs `write`, one write of the store, which calls `note` with the number of each history
    /// transaction it records; when `write` throws, its transaction did not commit, and the
    /// numbers it noted are forgotten: another writer may be given them.
    public func recording<T>(_ write: (_ note: (Int64) -> Void) throws -> T) throws -> T {
        var noted: [Int64] = []
        do {
            return try write { number in
                noteRecorded(number)
                noted.append(number)
            }
        } catch {
            for number in noted { forgetRecorded(number) }
            throw error
        }
    }

    /// Forgets that this store instance records transaction `number`: its write failed, so the
    /// number may be handed out again, to another writer.
    public func forgetRecorded(_ number: Int64) {
        state.withLock { _ = $0.recorded.remove(number) }
    }

    /// `nil` when `counter` (the store's commit counter, read before the history) is the one
    /// seen last time; otherwise the transactions after `number` that this instance did not
    /// record, with their changes, read through `transactions` (after a number, with or
    /// without changes). Forgets the recorded numbers up to the newest transaction found; a
    /// read that throws leaves everything as it was, so that the next call reads again.
    public func remoteHistory(
        after number: Int64, counter: Int64,
        transactions: (_ after: Int64, _ includingChanges: Bool) throws -> [PersistentHistoryTransaction]
    ) throws -> RemoteHistory? {
        guard state.withLock({ $0.counter != counter }) else { return nil }
        let headers = try transactions(number, false)
        let last = headers.last?.token.transactionNumber ?? number
        let foreign = state.withLock { state in
            Set(headers.map(\.token.transactionNumber).filter { !state.recorded.contains($0) })
        }
        var found: [PersistentHistoryTransaction] = []
        if let first = foreign.min() {
            found = try transactions(first - 1, true).filter {
                foreign.contains($0.token.transactionNumber) && $0.token.transactionNumber <= last
            }
        }
        state.withLock { state in
            state.counter = counter
            state.recorded = state.recorded.filter { $0 > last }
        }
        return RemoteHistory(lastTransactionNumber: last, transactions: found)
    }
}
