import Foundation
import StrataSearch
import StrataTestSupport
import Testing

/// The search index on a real file system that fails under it (a loop-mounted ext4 image,
/// `DiskImage`): full, turned read-only, or on storage that runs out under the file system. A
/// write fails with ``SearchError/Code/io``, and the index reopens with its entries and its
/// position in agreement, so that an exporter resumes from the position. Where the tests cannot
/// mount (not root), they say so; CI makes that a failure.
@Suite(.serialized) struct SearchIndexDiskFaultTests {
    /// Entries per batch; each batch sets the position to its number.
    static let batchSize = 20
    /// Text large enough that a few batches overflow the last blocks of a full disk.
    static let text = String(repeating: "searchable disk fault words ", count: 2_000)

    static func batch(_ number: Int) -> [SearchIndex.Entry] {
        (0..<batchSize).map { item in
            SearchIndex.Entry(
                uri: URL(string: "x-coredata://STORE/Note/p\(number * batchSize + item)")!, entityName: "Note",
                title: "batch\(number)", text: text)
        }
    }

    static func position(_ number: Int) -> Data { Data("batch \(number)".utf8) }

    /// Applies batches from `first` until one fails; returns the number of the last one applied
    /// and the error.
    static func applyUntilFailure(_ index: SearchIndex, from first: Int) -> (last: Int, error: (any Error)?) {
        for number in first..<first + 60 {
            do {
                try index.apply(upserting: batch(number), removing: [], position: position(number))
            } catch {
                return (number - 1, error)
            }
        }
        return (first + 59, nil)
    }

    /// The index's position and entries agree: batches 0 through the position, each whole.
    static func expectConsistent(_ index: SearchIndex, atMost last: Int, _ comment: String) throws {
        let position = try #require(try index.position(), "\(comment): no position")
        let number = try #require(
            Int(String(decoding: position, as: UTF8.self).dropFirst("batch ".count)),
            "\(comment): \(String(decoding: position, as: UTF8.self))")
        #expect(number <= last, "\(comment): position \(number) after \(last) applied")
        #expect(try index.count() == (number + 1) * batchSize, "\(comment): position \(number)")
        #expect(try index.search("batch\(number)").count == batchSize, "\(comment)")
    }

    static func fail(_ message: String) { Issue.record(Comment(rawValue: message)) }

    @Test func aFullDiskFailsAWriteWithIOAndTheIndexStaysWhole() throws {
        guard let disk = DiskImage.forTest(megabytes: 8, failing: Self.fail) else { return }
        let url = disk.folder.appendingPathComponent("Notes.search")
        let index = try SearchIndex(at: url)
        try index.apply(upserting: Self.batch(0), removing: [], position: Self.position(0))
        let filler = try disk.fill()
        let (last, failure) = Self.applyUntilFailure(index, from: 1)
        let error = try #require(
            failure as? SearchError, "every write fitted on a full disk: \(String(describing: failure))")
        #expect(error.code == .io && error.message.contains(url.path), "\(error)")
        try Self.expectConsistent(index, atMost: last, "after the failed write")
        try FileManager.default.removeItem(at: filler)
        try index.apply(upserting: Self.batch(last + 1), removing: [], position: Self.position(last + 1))
        try Self.expectConsistent(try SearchIndex(at: url), atMost: last + 1, "reopened")
        #expect(try SearchIndex(at: url).position() == Self.position(last + 1))
    }

    @Test func aFileSystemTurnedReadOnlyFailsAWriteAndTheIndexStaysWhole() throws {
        guard let disk = DiskImage.forTest(megabytes: 8, failing: Self.fail) else { return }
        let url = disk.folder.appendingPathComponent("Notes.search")
        do {
            let index = try SearchIndex(at: url)
            for number in 0..<3 {
                try index.apply(upserting: Self.batch(number), removing: [], position: Self.position(number))
            }
            try disk.turnReadOnly()
            let error = try #require(throws: SearchError.self) {
                try index.apply(upserting: Self.batch(3), removing: [], position: Self.position(3))
            }
            #expect(error.code == .io, "\(error)")
        }
        try disk.remountWritable()
        try Self.expectConsistent(try SearchIndex(at: url), atMost: 2, "after the file system turned read-only")
    }

    /// The index commits without flushing (`synchronous = NORMAL`: it is derived data, which an
    /// exporter rebuilds from the store's history), so a failed write-back may take its last
    /// commits; it never splits entries from their position.
    @Test func aWriteBackThatFailsUnderTheFileSystemLeavesTheIndexWhole() throws {
        guard let disk = DiskImage.forTest(megabytes: 64, storageMegabytes: 24, failing: Self.fail) else { return }
        let url = disk.folder.appendingPathComponent("Notes.search")
        var last = 0
        do {
            let index = try SearchIndex(at: url)
            try index.apply(upserting: Self.batch(0), removing: [], position: Self.position(0))
            // What was written before the storage runs out is on it.
            sync()
            try disk.exhaustStorage()
            let outcome = Self.applyUntilFailure(index, from: 1)
            last = outcome.last
            let error = try #require(outcome.error as? SearchError, "every write succeeded with no storage")
            #expect(error.code == .io, "\(error)")
        }
        try disk.freeStorage()
        try disk.remountWritable()
        try Self.expectConsistent(try SearchIndex(at: url), atMost: last, "after a failed write-back")
    }
}
