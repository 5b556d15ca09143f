import Strata

/// A wall clock a test sets and moves, in milliseconds, for ``HybridLogicalClock``s to read.
final class TestWallClock: Sendable {
    private let now: Locked<Int64>

    init(_ start: Int64 = 1_000) { now = Locked(start) }

    func set(_ milliseconds: Int64) { now.withLock { $0 = milliseconds } }

    func move(by milliseconds: Int64) { now.withLock { $0 += milliseconds } }

    func read() -> Int64 { now.withLock { $0 } }
}
