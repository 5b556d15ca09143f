import Logging
import Strata

/// A logger whose lines are kept for a test to read.
public final class CapturedLog: Sendable {
    /// One logged line.
    public struct Line: Sendable {
        public let level: Logger.Level
        public let message: String
        public let metadata: [String: String]
    }

    private let kept = Locked<[Line]>([])

    public init() {}

    /// A logger at `level` that keeps every line here.
    public func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "strata.test") { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    /// The lines logged so far.
    public var lines: [Line] { kept.withLock { $0 } }

    /// The lines whose message is `message`.
    public func lines(_ message: String) -> [Line] { lines.filter { $0.message == message } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let line = Line(
                level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
            log.kept.withLock { $0.append(line) }
        }
    }
}
