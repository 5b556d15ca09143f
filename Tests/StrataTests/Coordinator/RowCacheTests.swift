import Testing

@testable import Strata

@Suite struct RowCacheTests {
    static func snapshots(_ numbers: ClosedRange<Int64>) -> [Snapshot] {
        numbers.map { number in
            Snapshot(
                objectID: ObjectID(storeIdentifier: "S", entityName: "Post", reference: .integer(number)),
                values: ["title": .string("post \(number)")], version: 1)
        }
    }

    @Test func storingMoreThanTheCapacityKeepsTheNewestAndGoingPastItDropsTheOldestHalf() {
        let cache = RowCache(capacity: 8)
        let first = Self.snapshots(1...25)
        cache.store(first)
        let kept = first.filter { cache.snapshot(for: $0.objectID, maximumAge: nil) != nil }
        #expect(kept.map(\.objectID) == first.suffix(8).map(\.objectID), "the newest 8")
        #expect(cache.snapshot(for: first[24].objectID, maximumAge: nil) == first[24])
        let second = Self.snapshots(26...29)
        cache.store(second)
        // The young generation (22–25) was full: it became the old one, and the old one (18–21)
        // went.
        #expect(cache.snapshot(for: first[20].objectID, maximumAge: nil) == nil)
        #expect(cache.snapshot(for: first[21].objectID, maximumAge: nil) == first[21])
        #expect(second.allSatisfy { cache.snapshot(for: $0.objectID, maximumAge: nil) == $0 })
    }

    @Test func storingAgainReplacesAndRemovingForgetsInBothGenerations() {
        let cache = RowCache(capacity: 8)
        let first = Self.snapshots(1...6)
        cache.store(first)
        let newer = Snapshot(objectID: first[0].objectID, values: ["title": "changed"], version: 2)
        cache.store([newer])
        #expect(cache.snapshot(for: first[0].objectID, maximumAge: nil) == newer)
        cache.remove([first[0].objectID, first[5].objectID])
        #expect(cache.snapshot(for: first[0].objectID, maximumAge: nil) == nil)
        #expect(cache.snapshot(for: first[5].objectID, maximumAge: nil) == nil)
        #expect(cache.snapshot(for: first[1].objectID, maximumAge: nil) == first[1])
        cache.removeSnapshots(ofStore: "S")
        #expect(first.allSatisfy { cache.snapshot(for: $0.objectID, maximumAge: nil) == nil })
    }
}
