import Foundation

/// A way of writing every item to one file and reading them back, as a whole-file store does.
protocol WholeFileFormat {
    var fileName: String { get }
    /// Writes `records` to `url` durably: a temporary file, flushed to disk, renamed over `url`.
    func write(_ records: [ItemRecord], to url: URL) throws
    func read(_ url: URL) throws -> [ItemRecord]
}

/// The floor of a whole-file store: reads load the whole file, writes rewrite it; lookups,
/// traversal and changes work on the items in memory, as the store keeps them once opened.
final class WholeFileFloor: BenchSubject {
    let store: String
    let format: any WholeFileFormat
    let data: BenchData
    let records: [ItemRecord]
    let scratch: ScratchDirectory
    let full: URL
    private var parsedItems: [ItemRecord]?

    init(store: String, format: any WholeFileFormat, data: BenchData, records: [ItemRecord]) throws {
        self.store = store
        self.format = format
        self.data = data
        self.records = records
        let scratch = try ScratchDirectory("raw-\(store)")
        self.scratch = scratch
        full = try scratch.fresh("full").appendingPathComponent(format.fileName)
        try format.write(records, to: full)
    }

    func time(_ workload: Workload) throws -> Duration? {
        switch workload {
        case .insert:
            let url = try scratch.fresh("insert").appendingPathComponent(format.fileName)
            return try clock { try format.write(records, to: url) }
        case .fetchAll: return try clock { consume(try format.read(full)) }
        case .fetchIndexed: return try clock { consume(try format.read(full).filter { $0.number < data.indexedBound }) }
        case .loadByID:
            let items = try parsed()
            return clock { consume(data.touchedIDs.map { items[Int($0) - 1] }) }
        case .traverse:
            let items = try parsed()
            return clock {
                var sum = 0
                for parent in items.prefix(data.traversedParents) {
                    for child in parent.children { sum &+= items[Int(child) - 1].name.utf8.count }
                }
                consume(sum)
            }
        case .update, .delete:
            var items = try format.read(full)
            let url = try scratch.fresh("changed").appendingPathComponent(format.fileName)
            let touched = Set(data.touchedIDs)
            return try clock {
                if workload == .update {
                    for id in data.touchedIDs { items[Int(id) - 1].score = -1 }
                } else {
                    items.removeAll { touched.contains($0.id) }
                    for index in items.indices where !items[index].children.isEmpty {
                        items[index].children.removeAll { touched.contains($0) }
                    }
                }
                try format.write(items, to: url)
            }
        case .openCount: return try clock { consume(try format.read(full).count) }
        case .convert, .migrate, .memory, .insertHistory, .updateHistory, .deleteHistory, .batchUpdate, .batchDelete,
            .batchCompute, .fetchIndexedTyped, .readTyped, .saveSmall, .saveStriped, .fetchIndexedObserved,
            .saveSmallObserved:
            return nil
        }
    }

    /// The items of the full file, read on first use only: lookups and traversal just read them.
    private func parsed() throws -> [ItemRecord] {
        if let parsedItems { return parsedItems }
        let items = try format.read(full)
        parsedItems = items
        return items
    }
}

/// Writes `bytes` to `url` through a temporary file that is flushed before it is renamed.
func writeDurably(_ bytes: UnsafeRawBufferPointer, to url: URL) throws {
    let temporary = url.path + ".tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw FloorError(description: "cannot create \(temporary)") }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
        let count = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
        guard count > 0 else { throw FloorError(description: "cannot write \(temporary)") }
        written += count
    }
    guard fsync(descriptor) == 0, rename(temporary, url.path) == 0 else {
        throw FloorError(description: "cannot save \(url.path)")
    }
}
