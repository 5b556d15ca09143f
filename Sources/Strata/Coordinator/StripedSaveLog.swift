import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The intent log of saves that span stores: the file ``fileName`` in the folder of the stores
/// it serves (docs/STRIPED-SAVES.md).
///
/// Before any store of a striped save is written, the whole save is appended to the log as one
/// ``Entry`` and flushed to disk; each store then records the entry's number in its user
/// metadata in the same write as its data. A store added later whose recorded number is below
/// an entry naming it has not applied that entry, and the coordinator applies it then.
///
/// The file is locked (`flock`) for as long as a ``StripedSaveLog`` value lives, so striped
/// saves and recoveries over one folder run one at a time across coordinators and processes.
/// The file is never removed, only emptied, so that the lock always names the file in use.
final class StripedSaveLog {
    /// The log's file name in its folder.
    static let fileName = ".strata-save-log"

    /// A save across stores: its number and each durable store's share, by store identifier.
    struct Entry {
        var number: Int64
        var changes: [(storeIdentifier: String, changes: StoreChangeSet)]

        func changes(forStore identifier: String) -> StoreChangeSet? {
            changes.first { $0.storeIdentifier == identifier }?.changes
        }
    }

    /// The log's signature, at its start.
    static let magic = Array("STRSAVE2".utf8)
    /// The header: the signature, the last save number and the committed length (8 bytes each,
    /// little endian), where the records start (4 bytes), and a CRC-32C of those 28 bytes.
    static let headerSize = 32
    /// The signature of the logs of earlier Strata versions, whose 16-byte header held the
    /// signature and the last save number, and whose records ran to the end of the file.
    static let earlierMagic = Array("STRSAVE1".utf8)
    static let earlierHeaderSize = 16

    let url: URL
    /// What names the log's folder whatever path leads to it (``key(of:)``).
    let folderKey: String
    private let descriptor: Int32
    /// The length of the header and the decided records, as the header records it: bytes after
    /// it belong to an append that was never decided, and are cut before the next.
    private var committedLength = headerSize
    /// Where the decided records start: after the header, or after the records a
    /// ``rewrite(_:)`` left behind.
    private var recordsStart = headerSize
    /// The header before the last ``append(_:)``, which ``retract()`` writes back.
    private var previousHeader: (lastNumber: Int64, committedLength: Int)?
    /// Whether the file is an earlier version's log holding records.
    private var holdsEarlierRecords = false
    /// The number of the last save ever logged here, kept when the log is emptied, so that
    /// numbers keep growing whatever the stores say.
    private(set) var lastNumber: Int64 = 0

    private init(url: URL, folderKey: String, descriptor: Int32) {
        self.url = url
        self.folderKey = folderKey
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The log of the folder `folder`.
    static func url(inFolder folder: URL) -> URL { folder.appendingPathComponent(fileName) }

    /// Opens the log of `folder`, making it when there is none, and waits for its lock.
    ///
    /// - Throws: ``StoreError/Code/io`` naming the file when it cannot be made, opened or locked.
    static func lock(folder: URL, key: String? = nil) throws -> StripedSaveLog {
        let url = url(inFolder: folder)
        try StoreSideFiles.checkNotLinked([url.path], storeName: "a save across stores")
        var descriptor = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        let isNew = descriptor >= 0
        if !isNew, errno == EEXIST { descriptor = open(url.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW) }
        guard descriptor >= 0 else { throw ioError("Could not open the save log '\(url.path)'") }
        let log = StripedSaveLog(url: url, folderKey: key ?? Self.key(of: folder), descriptor: descriptor)
        // A new file's name must reach the disk before any entry written in it counts.
        if isNew { try flushFolder(folder, log: url) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw ioError("Could not lock the save log '\(url.path)'") }
        }
        return log
    }

    /// Whether the log of `folder` may hold entries: it exists and is longer than a header (an
    /// earlier version's shorter header with a record is longer than this one too).
    static func mayHoldEntries(folder: URL) -> Bool {
        var info = stat()
        return stat(url(inFolder: folder).path, &info) == 0 && info.st_size > headerSize
    }

    /// The log's decided entries, oldest first; reads the last save number too. Bytes after the
    /// committed length are the remains of an append that was never decided (no store was
    /// written for it), and are left out.
    ///
    /// - Throws: ``StoreError/Code/corrupt`` naming the file and position when the file is not
    ///   a save log, its header fails its checksum, or a decided record is cut short, fails its
    ///   checksum or does not decode against `schema`; or ``StoreError/Code/io``.
    func entries(schema: ModelSchema) throws -> [Entry] {
        let bytes = try contents()
        let source = "The save log '\(url.path)'"
        holdsEarlierRecords = false
        // A log made but never decided: its first append writes the header last.
        guard bytes.count >= Self.magic.count, bytes.prefix(Self.magic.count).contains(where: { $0 != 0 }) else {
            committedLength = Self.headerSize
            recordsStart = Self.headerSize
            return []
        }
        var header = BinaryReader(bytes, source: source)
        let magic = Array(try header.readRaw(Self.magic.count, "the log's signature"))
        if magic == Self.earlierMagic { return try earlierEntries(bytes, schema: schema) }
        guard magic == Self.magic else {
            throw header.corrupt("it does not start with a Strata save log's signature")
        }
        guard bytes.count >= Self.headerSize else { throw header.corrupt("its header is cut short", at: bytes.count) }
        let number = Int64(bitPattern: try header.readFixed64("the last save number"))
        let committed = try header.readFixed64("the committed length")
        let start = Int(try header.readFixed32("where the records start"))
        let checksum = try header.readFixed32("the header's checksum")
        guard CRC32C.checksum(bytes[0..<28]) == checksum else {
            throw header.corrupt("its header fails its checksum", at: 0)
        }
        guard committed >= UInt64(Self.headerSize), committed <= UInt64(Int.max), start >= Self.headerSize,
            start <= Int(committed)
        else {
            throw header.corrupt("its header gives records from byte \(start) to byte \(committed)", at: 8)
        }
        lastNumber = number
        committedLength = Int(committed)
        recordsStart = start
        // Emptying writes the header, then cuts the file: a file cut to its header whose new
        // header did not reach the disk holds no record left to apply.
        if bytes.count == Self.headerSize { return [] }
        guard bytes.count >= committedLength else {
            throw header.corrupt(
                "it ends at byte \(bytes.count), before the \(committedLength) bytes its header says are decided",
                at: bytes.count)
        }
        return try records(bytes, from: recordsStart, to: committedLength, source: source, schema: schema)
    }

    /// The whole records of `bytes` from `start` to `end`, each of which must be whole and sound.
    private func records(
        _ bytes: [UInt8], from start: Int, to end: Int, source: String, schema: ModelSchema
    ) throws -> [Entry] {
        var entries: [Entry] = []
        var offset = start
        while offset < end {
            var recordHeader = BinaryReader(bytes, from: offset, source: source)
            guard end - offset >= 8 else {
                throw recordHeader.corrupt("the record at byte \(offset) is cut short", at: offset)
            }
            let length = Int(try recordHeader.readFixed32("a record's length"))
            let checksum = try recordHeader.readFixed32("a record's checksum")
            let body = offset + 8
            guard length <= end - body else {
                throw recordHeader.corrupt(
                    "the record at byte \(offset) gives a length of \(length) bytes, past the \(end) bytes decided",
                    at: offset)
            }
            guard CRC32C.checksum(bytes[body..<body + length]) == checksum else {
                throw recordHeader.corrupt("the record at byte \(offset) fails its checksum", at: offset)
            }
            var reader = BinaryReader(bytes, from: body, source: source)
            entries.append(try reader.readEntry(schema: schema))
            guard reader.offset == body + length else {
                throw reader.corrupt("the record at byte \(offset) is longer than its contents")
            }
            offset = body + length
        }
        return entries
    }

    /// The entries of an earlier version's log, whose records run to the end of the file: a
    /// record cut short or damaged at the very end was never flushed, and is dropped.
    private func earlierEntries(_ bytes: [UInt8], schema: ModelSchema) throws -> [Entry] {
        let source = "The save log '\(url.path)'"
        guard bytes.count >= Self.earlierHeaderSize else { return [] }
        var header = BinaryReader(bytes, from: Self.earlierMagic.count, source: source)
        lastNumber = Int64(bitPattern: try header.readFixed64("the last save number"))
        var end = Self.earlierHeaderSize
        var offset = Self.earlierHeaderSize
        while bytes.count - offset >= 8 {
            var recordHeader = BinaryReader(bytes, from: offset, source: source)
            let length = Int(try recordHeader.readFixed32("a record's length"))
            let checksum = try recordHeader.readFixed32("a record's checksum")
            guard length <= bytes.count - offset - 8,
                CRC32C.checksum(bytes[offset + 8..<offset + 8 + length]) == checksum
            else { break }
            offset += 8 + length
            end = offset
        }
        holdsEarlierRecords = end > Self.earlierHeaderSize
        committedLength = Self.headerSize
        recordsStart = Self.headerSize
        return try records(bytes, from: Self.earlierHeaderSize, to: end, source: source, schema: schema)
    }

    /// Appends `entry` after the decided records read by ``entries(schema:)`` and decides it:
    /// cuts whatever follows them (a torn append), writes the record and flushes it, then writes
    /// the header naming it decided and flushes that. Until the header is on disk the save is
    /// not decided, and a failure leaves the log as it was.
    ///
    /// - Throws: ``StoreError/Code/io`` when the log cannot be written (nothing decided);
    ///   ``StoreError/Code/savePending`` when the new header may have reached the disk and the
    ///   old one could not be written back (the next addition of the stores completes the save);
    ///   ``StoreError/Code/unsupported`` for an earlier version's log still holding saves.
    /// - Parameter probe: told of each step, for tests that kill the process at one.
    func append(
        _ entry: Entry, probe: (PersistentStoreCoordinator.StripedSaveStep) -> Void = { _ in }
    ) throws {
        guard !holdsEarlierRecords else {
            throw StoreError(
                code: .unsupported,
                message: "The save log '\(url.path)' was written by an earlier version of Strata and holds saves not "
                    + "yet applied; add every store it names to apply them before saving across stores again.")
        }
        let record = Self.record(of: entry)
        let start = committedLength
        let end = start + record.count
        let newLast = max(entry.number, lastNumber)
        do {
            guard ftruncate(descriptor, off_t(start)) == 0 else {
                throw Self.ioError("Could not cut the save log '\(url.path)' before a new record")
            }
            try injectedFault(.record)
            let half = record.count / 2
            try write(Array(record[..<half]), at: start)
            probe(.recordHalfWritten)
            try write(Array(record[half...]), at: start + half)
            probe(.recordWritten)
            guard fdatasync(descriptor) == 0 else {
                throw Self.ioError("Could not flush the save log '\(url.path)' to disk")
            }
        } catch {
            _ = ftruncate(descriptor, off_t(start))
            throw error
        }
        do {
            probe(.recordFlushed)
            try injectedFault(.header)
            try write(Self.header(lastNumber: newLast, committedLength: end, recordsStart: recordsStart), at: 0)
            probe(.headerWritten)
            guard fdatasync(descriptor) == 0 else {
                throw Self.ioError("Could not flush the header of the save log '\(url.path)' to disk")
            }
        } catch {
            try writeBack(lastNumber: lastNumber, committedLength: start, after: error)
            _ = ftruncate(descriptor, off_t(start))
            throw error
        }
        previousHeader = (lastNumber, start)
        committedLength = end
        lastNumber = newLast
    }

    /// Undoes the last ``append(_:)``, whose save another log of the same save could not
    /// decide: writes the header before it back and flushes it.
    ///
    /// - Throws: ``StoreError/Code/savePending`` when the header cannot be written back: the
    ///   save stays decided in this log, and the next addition of its stores completes it.
    func retract() throws {
        guard let previous = previousHeader else { return }
        try writeBack(lastNumber: previous.lastNumber, committedLength: previous.committedLength, after: nil)
        previousHeader = nil
        committedLength = previous.committedLength
        lastNumber = previous.lastNumber
    }

    /// Writes the header of `lastNumber` and `committedLength` and flushes it, after `failure`
    /// (or a retraction, when `nil`).
    ///
    /// - Throws: ``StoreError/Code/savePending`` when it cannot.
    private func writeBack(lastNumber: Int64, committedLength: Int, after failure: (any Error)?) throws {
        do {
            try injectedFault(.headerWrittenBack)
            try write(
                Self.header(lastNumber: lastNumber, committedLength: committedLength, recordsStart: recordsStart), at: 0
            )
            guard fdatasync(descriptor) == 0 else {
                throw Self.ioError("Could not flush the header of the save log '\(url.path)' to disk")
            }
        } catch {
            throw StoreError(
                code: .savePending,
                message: "The save log '\(url.path)' may hold a save across stores as decided"
                    + (failure.map { " after \($0)" } ?? "") + ", and its earlier header could not be written back: "
                    + "\(error) The save is completed when its stores are next added.",
                underlying: failure ?? error)
        }
    }

    /// The writes made to fail, by the path of the log
    /// (``PersistentStoreCoordinator/failSaveLogWrites(inFolder:_:)``).
    static let failingWrites = Locked<[String: Set<PersistentStoreCoordinator.SaveLogWrite>]>([:])

    /// Throws the `io` error of a full disk when tests made `write` fail for this log.
    private func injectedFault(_ write: PersistentStoreCoordinator.SaveLogWrite) throws {
        guard Self.failingWrites.withLock({ $0[url.path]?.contains(write) ?? false }) else { return }
        errno = ENOSPC
        throw Self.ioError("Could not write the save log '\(url.path)'")
    }

    /// The header naming the records from `recordsStart` to `committedLength` decided and
    /// `lastNumber` the last save.
    static func header(lastNumber: Int64, committedLength: Int, recordsStart: Int = headerSize) -> [UInt8] {
        var header = BinaryWriter()
        header.write(raw: magic)
        header.write(fixed: UInt64(bitPattern: lastNumber))
        header.write(fixed: UInt64(committedLength))
        header.write(fixed: UInt32(recordsStart))
        header.write(fixed: CRC32C.checksum(header.bytes))
        return header.bytes
    }

    /// `entry` as a record: its payload's length and checksum, then the payload.
    private static func record(of entry: Entry) -> [UInt8] {
        var payload = BinaryWriter()
        payload.write(entry: entry)
        var record = BinaryWriter(reservingCapacity: payload.bytes.count + 8)
        record.write(fixed: UInt32(payload.bytes.count))
        record.write(fixed: CRC32C.checksum(payload.bytes))
        record.write(raw: payload.bytes)
        return record.bytes
    }

    /// Replaces the decided entries with `entries`, at once: writes their records after the
    /// decided ones and flushes them, then writes the header naming them the decided records
    /// and flushes it. A failure before the header is written leaves the log as it was.
    ///
    /// - Throws: ``StoreError/Code/io`` when the log cannot be written; `unsupported` for an
    ///   earlier version's log still holding saves.
    func rewrite(_ entries: [Entry]) throws {
        guard !holdsEarlierRecords else {
            throw StoreError(
                code: .unsupported,
                message: "The save log '\(url.path)' was written by an earlier version of Strata; add every store it "
                    + "names to apply its saves instead.")
        }
        let records = entries.flatMap(Self.record(of:))
        let start = committedLength
        guard ftruncate(descriptor, off_t(start)) == 0 else {
            throw Self.ioError("Could not cut the save log '\(url.path)' before rewriting it")
        }
        try write(records, at: start)
        guard fdatasync(descriptor) == 0 else { throw Self.ioError("Could not flush the save log '\(url.path)'") }
        try write(
            Self.header(lastNumber: lastNumber, committedLength: start + records.count, recordsStart: start), at: 0)
        guard fdatasync(descriptor) == 0 else {
            throw Self.ioError("Could not flush the header of the save log '\(url.path)'")
        }
        recordsStart = start
        committedLength = start + records.count
        previousHeader = nil
    }

    /// Empties the log of its records, keeping the last save number: every store its entries
    /// name has recorded them. Writes the header first, then cuts the file; not flushed:
    /// entries that come back after a crash are found applied.
    func clear() throws {
        guard committedLength > Self.headerSize || holdsEarlierRecords else { return }
        try write(Self.header(lastNumber: lastNumber, committedLength: Self.headerSize), at: 0)
        guard ftruncate(descriptor, off_t(Self.headerSize)) == 0 else {
            throw Self.ioError("Could not empty the save log '\(url.path)'")
        }
        committedLength = Self.headerSize
        recordsStart = Self.headerSize
        holdsEarlierRecords = false
        previousHeader = nil
    }

    private func contents() throws -> [UInt8] {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.ioError("Could not read the save log '\(url.path)'") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                guard count == 0 else { throw Self.ioError("Could not read the save log '\(url.path)'") }
                break
            }
            done += count
        }
        return Array(bytes[..<done])
    }

    private func write(_ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Self.ioError("Could not write the save log '\(url.path)'") }
            done += count
        }
    }

    private static func flushFolder(_ folder: URL, log: URL) throws {
        let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            throw ioError("Could not flush the folder of the save log '\(log.path)' to disk")
        }
    }

    private static func ioError(_ what: String) -> StoreError {
        StoreError(code: .io, message: "\(what): \(String(cString: strerror(errno))).")
    }
}

extension StripedSaveLog {
    /// Locks the logs of `folders`, each once, in path order so that two savers never wait for
    /// each other.
    static func lockAll(folders: [URL]) throws -> [StripedSaveLog] {
        let unique = Dictionary(folders.map { (key(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        return try unique.keys.sorted().map { try lock(folder: unique[$0]!, key: $0) }
    }

    /// What names `folder` whatever path leads to it.
    static func key(of folder: URL) -> String { folder.resolvingSymlinksInPath().standardizedFileURL.path }

    /// Whether this is the log of `folder`.
    func serves(folder: URL) -> Bool { folderKey == Self.key(of: folder) }

    /// Empties the log after a save across stores that every store wrote: at once when that
    /// save's record was its only one, otherwise as ``clearIfApplied(schema:hasApplied:)`` does.
    func clearAfterSave(
        schema: ModelSchema, hasApplied: (_ number: Int64, _ storeIdentifier: String) throws -> Bool
    ) throws {
        if let previous = previousHeader, previous.committedLength == recordsStart, !holdsEarlierRecords {
            try clear()
        } else {
            try clearIfApplied(schema: schema, hasApplied: hasApplied)
        }
    }

    /// Empties the log when every store its entries name has recorded them, as `hasApplied`
    /// answers (a store not added has not); otherwise leaves it for the stores still to come.
    func clearIfApplied(
        schema: ModelSchema, hasApplied: (_ number: Int64, _ storeIdentifier: String) throws -> Bool
    ) throws {
        let pending = try entries(schema: schema).contains { entry in
            try entry.changes.contains { try !hasApplied(entry.number, $0.storeIdentifier) }
        }
        if !pending { try clear() }
    }
}
