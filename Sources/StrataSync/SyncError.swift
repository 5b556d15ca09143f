/// Why a sync operation was refused. What a peer sends is data: a clock too far ahead, an
/// operation naming an object as another entity, or a counter that would overflow is one of
/// these errors, never a crash.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Code: String, Sendable {
        /// A peer's clock reads further ahead of this machine's than the clock accepts.
        case clockDrift
        /// More events in one millisecond than a timestamp's counter can number.
        case clockOverflow
        /// An operation names an object already known as an object of another entity.
        case entityMismatch
    }

    /// What kind of failure it is.
    public let code: Code
    /// A sentence naming the replica, object or timestamp and what is wrong.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
