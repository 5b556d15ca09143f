/// What a store can do beyond the obligations every store has, as reports and tools show it.
/// The conformance suite skips the checks that need a second process unless the store declares
/// ``multiProcessAccess``. A capability is added with the first store that has it and the
/// first code or check that reads it.
public struct StoreCapabilities: OptionSet, Sendable, Hashable {
    /// The capabilities as bits.
    public let rawValue: UInt32
    /// Creates capabilities from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Several reads run at once.
    public static let concurrentReaders = StoreCapabilities(rawValue: 1 << 4)
    /// Several processes may open the store's file at once.
    public static let multiProcessAccess = StoreCapabilities(rawValue: 1 << 5)
    /// Durability can be traded for speed (an option; durable by default).
    public static let relaxedDurability = StoreCapabilities(rawValue: 1 << 7)
}
