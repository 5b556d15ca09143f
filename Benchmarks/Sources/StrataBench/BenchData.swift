import Foundation

/// One object of the benchmark model as plain values, shared by every store and floor so that
/// all of them store the same bytes.
struct ItemRecord: Sendable, Equatable {
    var id: Int64
    var number: Int64
    var name: String
    var score: Double
    /// Seconds since 2001-01-01, as Core Data stores dates.
    var stamp: Double
    var flag: Bool
    var blob: [UInt8]
    var parent: Int64?
    var children: [Int64]
}

/// The data set of one run: `count` items numbered 1…count. The first `parentCount` items are
/// parents of 10 children each, taken in order from the items after them; the rest have none.
struct BenchData: Sendable {
    static let childrenPerParent = 10
    /// How many objects the load, update and delete workloads touch in a full run.
    static let fullTouched = 10_000
    /// The number of objects a full run stores; a scaled run touches `fullTouched` in proportion.
    static let fullCount = 100_000

    let count: Int
    /// How many objects the load, update and delete workloads touch, and the most parents the
    /// traverse workload visits.
    let touched: Int

    /// The data set of `count` items; `scaled` makes the touched objects 10 000 × `count` / 100 000
    /// (the `--quick` run) instead of 10 000.
    init(count: Int, scaled: Bool = false) {
        self.count = count
        touched = scaled ? max(1, Self.fullTouched * count / Self.fullCount) : Self.fullTouched
    }

    var parentCount: Int { count / (Self.childrenPerParent + 1) }
    /// The parents the traverse workload visits: `touched`, or every parent when there are fewer.
    var traversedParents: Int { min(touched, parentCount) }
    /// The numbers below this bound are the ~1 % the indexed fetch returns.
    var indexedBound: Int64 { Int64(count / 100) }
    /// The objects touched by load, update and delete: `touched` of them spread over the whole store.
    var touchedIDs: [Int64] {
        let step = max(1, count / touched)
        return stride(from: 1, through: count, by: step).prefix(touched).map { Int64($0) }
    }

    func record(_ id: Int64) -> ItemRecord {
        let parentCount = Int64(self.parentCount)
        let per = Int64(Self.childrenPerParent)
        let children: [Int64] =
            id <= parentCount ? (0..<per).map { parentCount + (id - 1) * per + $0 + 1 } : []
        let parent: Int64? =
            id > parentCount && id <= parentCount * (per + 1) ? (id - parentCount - 1) / per + 1 : nil
        return ItemRecord(
            id: id, number: id - 1, name: "item-\(String(id, radix: 16).leftPadded(to: 11))",
            score: Double(id) * 0.5, stamp: 700_000_000 + Double(id), flag: id % 2 == 0,
            blob: (0..<32).map { UInt8(truncatingIfNeeded: id &+ Int64($0)) }, parent: parent, children: children)
    }

    var records: [ItemRecord] { (1...Int64(count)).map(record) }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
