/// Identifies an observer added with ``ManagedObjectContext/addObserver(for:_:)``.
public struct ObserverToken: Hashable, Sendable {
    let id: Int
}

/// A context's callbacks, touched on its queue only.
struct NotificationObservers {
    private var handlers: [(token: ObserverToken, kind: ContextNotification.Kind, handler: (ContextChanges) -> Void)] =
        []
    private var nextToken = 0
    let streams = NotificationStreams()

    mutating func add(kind: ContextNotification.Kind, handler: @escaping (ContextChanges) -> Void) -> ObserverToken {
        nextToken += 1
        let token = ObserverToken(id: nextToken)
        handlers.append((token, kind, handler))
        return token
    }

    mutating func remove(_ token: ObserverToken) {
        handlers.removeAll { $0.token == token }
    }

    /// Whether a handler or a stream waits for notifications of `kind`.
    func isObserving(_ kind: ContextNotification.Kind) -> Bool {
        handlers.contains { $0.kind == kind } || streams.isStreaming(kind)
    }

    func post(_ changes: ContextChanges) {
        for entry in handlers where entry.kind == changes.kind { entry.handler(changes) }
        streams.yield(changes.notification)
    }
}

/// A context's notification streams, opened and ended from any thread.
final class NotificationStreams: Sendable {
    private typealias Entry = (
        kinds: Set<ContextNotification.Kind>, continuation: AsyncStream<ContextNotification>.Continuation
    )
    private let state = Locked<(next: Int, entries: [Int: Entry])>((0, [:]))

    func stream(of kinds: Set<ContextNotification.Kind>) -> AsyncStream<ContextNotification> {
        let (stream, continuation) = AsyncStream<ContextNotification>.makeStream()
        let id = state.withLock { state in
            state.next += 1
            state.entries[state.next] = (kinds, continuation)
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.entries.removeValue(forKey: id) }
        }
        return stream
    }

    /// Whether an open stream takes notifications of `kind`.
    func isStreaming(_ kind: ContextNotification.Kind) -> Bool {
        state.withLock { $0.entries.values.contains { $0.kinds.contains(kind) } }
    }

    func yield(_ notification: ContextNotification) {
        let targets = state.withLock { $0.entries.values.filter { $0.kinds.contains(notification.kind) } }
        for entry in targets { entry.continuation.yield(notification) }
    }

    func finish() {
        let all = state.withLock { $0.entries.values.map(\.continuation) }
        for continuation in all { continuation.finish() }
    }
}
