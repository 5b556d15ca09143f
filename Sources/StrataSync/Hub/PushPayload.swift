/// A push's operations as a replica's pending push and a hub's log keep them: in sync's binary
/// form (``binaryData()``). Payloads kept before it are JSON, read still: an array of operations
/// when the push says nothing of what its replica had seen, else
/// `{"seen": N, "operations": […]}`.
struct PushPayload: Codable, Equatable {
    /// ``SyncPush/seen``.
    var seen: Int64?
    /// ``SyncPush/operations``.
    var operations: [SyncOperation]

    private enum CodingKeys: String, CodingKey { case seen, operations }

    init(seen: Int64?, operations: [SyncOperation]) {
        self.seen = seen
        self.operations = operations
    }

    init(from decoder: any Decoder) throws {
        if let array = try? decoder.singleValueContainer().decode([SyncOperation].self) {
            self.init(seen: nil, operations: array)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seen: try container.decodeIfPresent(Int64.self, forKey: .seen),
            operations: try container.decode([SyncOperation].self, forKey: .operations))
    }

    func encode(to encoder: any Encoder) throws {
        guard let seen else {
            var container = encoder.singleValueContainer()
            try container.encode(operations)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seen, forKey: .seen)
        try container.encode(operations, forKey: .operations)
    }
}
