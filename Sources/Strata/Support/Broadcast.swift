/// Hands each element it is given to every sequence made from it that is still open: the way
/// one source of events reaches any number of listeners.
package final class Broadcast<Element: Sendable>: Sendable {
    private let listeners = Locked<(next: Int, continuations: [Int: AsyncStream<Element>.Continuation])>((0, [:]))

    package init() {}

    /// A new sequence, which receives the elements given from now on; it ends when its task is
    /// cancelled or the broadcast goes away.
    package func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        let number = listeners.withLock { state in
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.listeners.withLock { _ = $0.continuations.removeValue(forKey: number) }
        }
        return stream
    }

    /// Gives `element` to every open sequence.
    package func yield(_ element: Element) {
        for listener in listeners.withLock({ Array($0.continuations.values) }) { listener.yield(element) }
    }

    /// Ends every sequence.
    deinit {
        for listener in listeners.withLock({ Array($0.continuations.values) }) { listener.finish() }
    }
}
