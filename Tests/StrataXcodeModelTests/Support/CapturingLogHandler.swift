import Logging
import Strata

/// A log handler that keeps every message, to check what a loader logged.
struct CapturingLogHandler: LogHandler {
    /// The messages logged so far, shared by every copy of the handler.
    final class Messages: Sendable {
        private let storage = Locked<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])

        /// Every message, in order.
        var all: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] { storage.withLock { $0 } }

        fileprivate func append(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) {
            storage.withLock { $0.append((level, message, metadata)) }
        }
    }

    let messages: Messages
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    /// A logger whose messages end up in the returned ``Messages``.
    static func logger() -> (Logger, Messages) {
        let messages = Messages()
        return (Logger(label: "test", factory: { _ in CapturingLogHandler(messages: messages) }), messages)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.append(event.level, "\(event.message)", event.metadata ?? [:])
    }
}
