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
        /// A push with no operations, or one a hub cannot read.
        case malformedPush
        /// A push whose operations are stamped by another replica than the one sending it, or
        /// that reuses another replica's push ID.
        case forgedReplica
        /// A push larger than the hub takes.
        case pushTooLarge
        /// A push under an ID the hub holds with other operations.
        case pushReplayed
        /// A request to a sync server without a known bearer token.
        case unauthorized
        /// A request a token does not allow: for another hub, or a push with a read-only token.
        case forbidden
        /// A hub a sync server does not serve.
        case unknownHub
        /// A hub that could not be reached, or that answered with something other than the
        /// protocol's replies.
        case hubUnreachable
        /// A hub's refusal with a code this version does not know.
        case hubRefused
        /// Sync state kept in a store that cannot be read back: a damaged record, or one
        /// written by a newer version.
        case corruptState
        /// A replica whose model version is older than the oldest its hub serves
        /// (``ModelSupport``).
        case modelTooOld
        /// A store a replica syncs lacks what sync needs: the sync entities in its model, or
        /// persistent history.
        case unsupportedStore
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
