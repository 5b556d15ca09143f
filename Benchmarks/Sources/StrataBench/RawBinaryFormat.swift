import Foundation

/// A plain hand-written binary layout: a count, then each item's fields at fixed widths,
/// strings and data prefixed by their length, all little-endian.
struct RawBinaryFormat: WholeFileFormat {
    let fileName = "items.bin"

    func write(_ records: [ItemRecord], to url: URL) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 120)
        append(UInt64(records.count), to: &bytes)
        for record in records {
            append(record.id, to: &bytes)
            append(record.number, to: &bytes)
            append(UInt32(record.name.utf8.count), to: &bytes)
            bytes.append(contentsOf: record.name.utf8)
            append(record.score.bitPattern, to: &bytes)
            append(record.stamp.bitPattern, to: &bytes)
            bytes.append(record.flag ? 1 : 0)
            append(UInt32(record.blob.count), to: &bytes)
            bytes.append(contentsOf: record.blob)
            append(record.parent ?? 0, to: &bytes)
            append(UInt32(record.children.count), to: &bytes)
            for child in record.children { append(child, to: &bytes) }
        }
        try bytes.withUnsafeBytes { try writeDurably($0, to: url) }
    }

    func read(_ url: URL) throws -> [ItemRecord] {
        let bytes = try [UInt8](Data(contentsOf: url))
        var offset = 0
        func fixed<T: FixedWidthInteger>(_: T.Type) throws -> T {
            guard offset + MemoryLayout<T>.size <= bytes.count else {
                throw FloorError(description: "\(url.path) ends early at \(offset)")
            }
            var value = T.zero
            for index in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + index]) << (index * 8) }
            offset += MemoryLayout<T>.size
            return value
        }
        func slice() throws -> ArraySlice<UInt8> {
            let count = Int(try fixed(UInt32.self))
            guard offset + count <= bytes.count else { throw FloorError(description: "\(url.path) ends early") }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
        let count = Int(try fixed(UInt64.self))
        var records: [ItemRecord] = []
        records.reserveCapacity(count)
        for _ in 0..<count {
            let id = try fixed(Int64.self)
            let number = try fixed(Int64.self)
            let name = String(decoding: try slice(), as: UTF8.self)
            let score = Double(bitPattern: try fixed(UInt64.self))
            let stamp = Double(bitPattern: try fixed(UInt64.self))
            let flag = try fixed(UInt8.self) != 0
            let blob = Array(try slice())
            let parent = try fixed(Int64.self)
            let children = try (0..<Int(try fixed(UInt32.self))).map { _ in try fixed(Int64.self) }
            records.append(
                ItemRecord(
                    id: id, number: number, name: name, score: score, stamp: stamp, flag: flag, blob: blob,
                    parent: parent == 0 ? nil : parent, children: children))
        }
        return records
    }

    private func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
