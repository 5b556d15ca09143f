import Foundation

/// The floor of the in-memory store: a dictionary of the same records by ID, built, read and
/// changed as the store's objects are.
final class InMemoryFloor: BenchSubject {
    let data: BenchData
    let records: [ItemRecord]
    /// Every record by ID: what the read workloads read.
    private let full: [Int64: ItemRecord]

    var store: String { "InMemory" }

    init(data: BenchData, records: [ItemRecord]) {
        self.data = data
        self.records = records
        full = Self.dictionary(of: records)
    }

    private static func dictionary(of records: [ItemRecord]) -> [Int64: ItemRecord] {
        var items = [Int64: ItemRecord](minimumCapacity: records.count)
        for record in records { items[record.id] = record }
        return items
    }

    /// A checksum of every field of `record`, so that reading it cannot be optimised away.
    private static func touch(_ record: ItemRecord) -> Int {
        Int(truncatingIfNeeded: record.number) &+ record.name.utf8.count &+ Int(record.score)
            &+ Int(record.stamp) &+ (record.flag ? 1 : 0) &+ record.blob.count
    }

    func time(_ workload: Workload) throws -> Duration? {
        switch workload {
        case .insert: return clock { consume(Self.dictionary(of: records).count) }
        case .fetchAll: return clock { consume(full.values.reduce(0) { $0 &+ Self.touch($1) }) }
        case .fetchIndexed:
            return clock {
                consume(full.values.filter { $0.number < data.indexedBound }.reduce(0) { $0 &+ Self.touch($1) })
            }
        case .loadByID: return clock { consume(data.touchedIDs.reduce(0) { $0 &+ (full[$1].map(Self.touch) ?? 0) }) }
        case .traverse:
            return clock {
                var sum = 0
                for id in 1...Int64(data.traversedParents) {
                    for child in full[id]?.children ?? [] { sum &+= full[child]?.name.utf8.count ?? 0 }
                }
                consume(sum)
            }
        case .update:
            var items = Self.dictionary(of: records)
            return clock { for id in data.touchedIDs { items[id]?.score = -1 } }
        case .delete:
            var items = Self.dictionary(of: records)
            return clock {
                for id in data.touchedIDs {
                    guard let removed = items.removeValue(forKey: id) else { continue }
                    if let parent = removed.parent { items[parent]?.children.removeAll { $0 == id } }
                    for child in removed.children { items[child]?.parent = nil }
                }
            }
        case .openCount, .convert, .migrate, .memory, .insertHistory, .updateHistory, .deleteHistory, .batchUpdate,
            .batchDelete, .batchCompute, .fetchIndexedTyped, .readTyped, .saveSmall, .saveStriped,
            .fetchIndexedObserved, .saveSmallObserved:
            return nil
        }
    }
}
