import Foundation
import Strata
import StrataSync
import Testing

/// The hybrid logical clock: monotonic whatever the wall clock does, after every timestamp it
/// took in, and refusing peers too far ahead.
@Suite struct HybridLogicalClockTests {
    private func clock(_ wall: TestWallClock, replica: ReplicaID = .random()) -> HybridLogicalClock {
        HybridLogicalClock(replica: replica, maximumDrift: .seconds(1), wallClock: { wall.read() })
    }

    @Test func timestampsFollowTheWallClockAndNeverRepeatOrGoBack() throws {
        let wall = TestWallClock()
        var clock = clock(wall)
        let first = try clock.tick()
        #expect(first.milliseconds == 1_000 && first.counter == 0)
        let second = try clock.tick()
        #expect(second.milliseconds == 1_000 && second.counter == 1)
        wall.set(900)
        let third = try clock.tick()
        #expect(third > second && third.milliseconds == 1_000 && third.counter == 2)
        wall.set(1_500)
        let fourth = try clock.tick()
        #expect(fourth.milliseconds == 1_500 && fourth.counter == 0)
    }

    @Test func anEventAfterAPeersTimestampIsStampedAfterIt() throws {
        let wall = TestWallClock()
        var clock = clock(wall)
        let peer = SyncTimestamp(milliseconds: 1_800, counter: 7, replica: .random())
        try clock.receive(peer)
        let next = try clock.tick()
        #expect(next > peer)
        #expect(next.milliseconds == 1_800 && next.counter == 9)
        // A peer behind this clock moves nothing back.
        try clock.receive(SyncTimestamp(milliseconds: 10, counter: 0, replica: .random()))
        #expect(try clock.tick() > next)
    }

    @Test func aPeerTooFarAheadIsRefusedAndTheClockIsLeftAsItWas() throws {
        let wall = TestWallClock()
        var clock = clock(wall)
        let before = try clock.tick()
        let ahead = SyncTimestamp(milliseconds: 1_000 + 1_001, counter: 0, replica: .random())
        let error = #expect(throws: SyncError.self) { try clock.receive(ahead) }
        #expect(error?.code == .clockDrift)
        #expect(error?.message.contains("1001 ms ahead") == true)
        #expect(clock.last == before)
        try clock.receive(SyncTimestamp(milliseconds: 2_000, counter: 0, replica: .random()))
        #expect(clock.last.milliseconds == 2_000)
    }

    @Test func aDriftTooLargeToCountInMillisecondsAcceptsEveryPeer() throws {
        let wall = TestWallClock()
        var clock = HybridLogicalClock(
            replica: .random(), maximumDrift: .seconds(Int64.max), wallClock: { wall.read() })
        try clock.receive(SyncTimestamp(milliseconds: .max - 1, counter: 0, replica: .random()))
        #expect(clock.last.milliseconds == .max - 1)
    }

    @Test func aCounterThatWouldOverflowIsATypedError() throws {
        let wall = TestWallClock()
        var clock = clock(wall)
        let full = SyncTimestamp(milliseconds: 1_000, counter: .max, replica: .random())
        let error = #expect(throws: SyncError.self) { try clock.receive(full) }
        #expect(error?.code == .clockOverflow)
    }

    @Test func timestampsOrderByTimeThenCounterThenReplica() {
        let low = ReplicaID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
        let high = ReplicaID(UUID(uuidString: "F0000000-0000-0000-0000-000000000000")!)
        let ordered = [
            SyncTimestamp(milliseconds: 1, counter: 5, replica: high),
            SyncTimestamp(milliseconds: 2, counter: 0, replica: high),
            SyncTimestamp(milliseconds: 2, counter: 1, replica: low),
            SyncTimestamp(milliseconds: 2, counter: 1, replica: high),
        ]
        #expect(ordered.shuffled().sorted() == ordered)
        #expect(low < high)
    }
}
