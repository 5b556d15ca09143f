import Foundation
import Synchronization

/// Hands out temporary references: eight random bytes drawn once per process, then a counter,
/// formatted as a UUID. Unique within the process and, with overwhelming likelihood, across
/// processes, at the cost of one atomic increment instead of a random UUID per new object.
enum TemporaryReferences {
    private static let prefix = UInt64.random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    static func next() -> UUID {
        let count = counter.add(1, ordering: .relaxed).newValue
        let (high, low) = (prefix.bigEndian, count.bigEndian)
        return withUnsafeBytes(of: (high, low)) { bytes in
            UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }
}
