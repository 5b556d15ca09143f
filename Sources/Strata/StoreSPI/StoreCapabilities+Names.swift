extension StoreCapabilities: CustomStringConvertible {
    /// Every capability with its name, in declaration order.
    public static let named: [(name: String, capability: StoreCapabilities)] = [
        ("queryGenerations", .queryGenerations), ("persistentHistory", .persistentHistory),
        ("multiProcessAccess", .multiProcessAccess), ("batchOperations", .batchOperations),
        ("batchComputedValues", .batchComputedValues), ("externalBinaryStorage", .externalBinaryStorage),
        ("relaxedDurability", .relaxedDurability), ("crossStoreRelationships", .crossStoreRelationships),
    ]

    /// The names of the capabilities in the set, in declaration order.
    public var names: [String] { Self.named.filter { contains($0.capability) }.map(\.name) }

    /// The names joined by commas, or `none`.
    public var description: String { names.isEmpty ? "none" : names.joined(separator: ", ") }
}
