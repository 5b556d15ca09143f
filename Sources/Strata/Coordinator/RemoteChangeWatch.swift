import Foundation

/// What a coordinator keeps to find and announce other writers' saves: where it got to in
/// each watched store's history, who listens, and whether its timer runs.
final class RemoteChangeWatch: Sendable {
    struct State {
        /// The newest transaction number seen in each watched store, by store instance.
        var lastNumbers: [ObjectIdentifier: Int64] = [:]
        var listeners: [Int: AsyncStream<RemoteStoreChange>.Continuation] = [:]
        var nextListener = 0
        var isPolling = false
        var interval: Duration = .milliseconds(250)
    }

    let state = Locked(State())
    /// Held while the stores are asked, so that two checks never announce one save twice.
    let checking = Locked<Void>(())

    /// Ends every listener's sequence: the coordinator went away.
    deinit {
        for listener in state.withLock({ $0.listeners.values }) { listener.finish() }
    }
}
