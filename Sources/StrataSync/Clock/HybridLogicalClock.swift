import Foundation

/// One replica's hybrid logical clock: timestamps that follow the wall clock where it moves
/// forward, and never go back or repeat when it does not (a clock set back, two events in one
/// millisecond, a peer's clock ahead of ours).
///
/// ``tick()`` stamps a local event. ``receive(_:)`` takes in a peer's timestamp, so that every
/// later local event is stamped after it: a change made after seeing another is always later
/// than it, on every replica. A peer's timestamp more than ``maximumDrift`` ahead of this
/// machine's wall clock is refused, so that one machine with a wrong clock cannot make every
/// replica's later writes lose to it.
///
/// The algorithm is Kulkarni, Demirbas et al., "Logical Physical Clocks" (2014).
public struct HybridLogicalClock: Sendable {
    /// The replica the clock stamps events for.
    public let replica: ReplicaID
    /// How far ahead of this machine's wall clock a peer's timestamp may be.
    public let maximumDrift: Duration
    /// The wall clock, in milliseconds since 1970-01-01 UTC.
    private let wallClock: @Sendable () -> Int64
    /// The last timestamp's milliseconds and counter.
    private var milliseconds: Int64 = 0
    private var counter: UInt32 = 0

    /// A clock for `replica`, reading `wallClock` (the system's by default) and refusing peers
    /// more than `maximumDrift` ahead of it.
    public init(
        replica: ReplicaID, maximumDrift: Duration = .seconds(300),
        wallClock: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    ) {
        self.replica = replica
        self.maximumDrift = maximumDrift
        self.wallClock = wallClock
    }

    /// The last timestamp the clock gave or took in; the lowest timestamp of the replica before
    /// the first.
    public var last: SyncTimestamp { SyncTimestamp(milliseconds: milliseconds, counter: counter, replica: replica) }

    /// A timestamp for a local event, later than every timestamp the clock gave or took in.
    ///
    /// - Throws: ``SyncError/Code/clockOverflow`` when the wall clock stands still for more
    ///   events than the counter can number.
    public mutating func tick() throws -> SyncTimestamp {
        let now = wallClock()
        if now > milliseconds {
            milliseconds = now
            counter = 0
        } else {
            counter = try next(after: counter)
        }
        return last
    }

    /// Carries on after `last`, the last timestamp the clock gave or took in before the replica
    /// stopped, so that a replica restarted with its wall clock set back still stamps later.
    mutating func resume(after last: SyncTimestamp) {
        guard (last.milliseconds, last.counter) > (milliseconds, counter) else { return }
        milliseconds = last.milliseconds
        counter = last.counter
    }

    /// Takes in `remote`, a timestamp from a peer, so that every later ``tick()`` is after it.
    ///
    /// - Throws: ``SyncError/Code/clockDrift`` when `remote` is more than ``maximumDrift``
    ///   ahead of the wall clock (the clock is left as it was);
    ///   ``SyncError/Code/clockOverflow`` as ``tick()``.
    public mutating func receive(_ remote: SyncTimestamp) throws {
        let now = wallClock()
        let (seconds, attoseconds) = maximumDrift.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let drift = overflow ? Int64.max : whole.addingSaturating(attoseconds / 1_000_000_000_000_000)
        guard remote.milliseconds <= now.addingSaturating(drift) else {
            throw SyncError(
                code: .clockDrift,
                message: "Replica \(remote.replica)'s clock reads \(remote.milliseconds - now) ms ahead of this "
                    + "machine's (at most \(drift) ms are accepted); check the clocks of both machines.")
        }
        let top = max(milliseconds, remote.milliseconds, now)
        let newCounter: UInt32
        if top == milliseconds && top == remote.milliseconds {
            newCounter = try next(after: max(counter, remote.counter))
        } else if top == milliseconds {
            newCounter = try next(after: counter)
        } else if top == remote.milliseconds {
            newCounter = try next(after: remote.counter)
        } else {
            newCounter = 0
        }
        milliseconds = top
        counter = newCounter
    }

    private func next(after counter: UInt32) throws -> UInt32 {
        guard counter < .max else {
            throw SyncError(
                code: .clockOverflow,
                message: "Replica \(replica)'s clock numbered \(UInt32.max) events in millisecond \(milliseconds); "
                    + "the wall clock has stood still or gone back for too long.")
        }
        return counter + 1
    }
}

extension Int64 {
    /// The sum, or the nearest bound when it would overflow.
    fileprivate func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
