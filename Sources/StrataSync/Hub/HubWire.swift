/// What a sync server and ``HTTPHub`` say to each other besides pushes, receipts and batches
/// (docs/SYNC.md, "The HTTP protocol").
public enum HubWire {
    /// The body of every refusal: the ``SyncError/Code`` as text, and a sentence.
    public struct Refusal: Sendable, Hashable, Codable {
        /// The error's code (``SyncError/Code``'s raw value).
        public var code: String
        /// What was refused and why.
        public var message: String

        /// Creates a refusal.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The answer to a wait for the log to move.
    public struct Head: Sendable, Hashable, Codable {
        /// The log's last sequence number.
        public var head: Int64

        /// Creates an answer.
        public init(head: Int64) { self.head = head }
    }

    /// The answer to a replica's model version the hub serves (``SyncHub/admit(_:model:)``).
    public struct Admitted: Sendable, Hashable, Codable {
        /// The version admitted.
        public var model: SyncModelVersion

        /// Creates an answer.
        public init(model: SyncModelVersion) { self.model = model }
    }

    /// The header that carries, with each push, pull and wait, the digest of the model version
    /// the server admitted (``SyncModelVersion/digest``), so that another server behind the same
    /// address, which has not admitted the replica, admits it as it answers.
    public static let modelHeader = "Strata-Sync-Model"

    /// The path of `hub`'s `endpoint` (`push`, `pull`, `head` or `admit`) under a server's base URL.
    public static func path(of hub: String, _ endpoint: String) -> String { "v1/hubs/\(hub)/\(endpoint)" }
}
