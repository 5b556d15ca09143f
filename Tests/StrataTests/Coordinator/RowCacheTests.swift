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

    @Test func storingMoreThanTheCapacityKeepsTheNewestAndGoingPastItDropsTheOldest() {
        let cache = RowCache(capacity: 8)
        let first = Self.snapshots(1...25)
        cache.store(first)
        let kept = first.filter { cache.snapshot(for: $0.objectID, maximumAge: nil) != nil }
        #expect(kept.map(\.objectID) == first.suffix(8).map(\.objectID), "the newest 8")
        #expect(cache.snapshot(for: first[24].objectID, maximumAge: nil) == first[24])
        let second = Self.snapshots(26...29)
        cache.store(second)
        // 12 entries are past the capacity: the oldest go until three quarters of it are left.
        #expect(cache.snapshot(for: first[22].objectID, maximumAge: nil) == nil)
        #expect(cache.snapshot(for: first[23].objectID, maximumAge: nil) == first[23])
        #expect(second.allSatisfy { cache.snapshot(for: $0.objectID, maximumAge: nil) == $0 })
    }
}
