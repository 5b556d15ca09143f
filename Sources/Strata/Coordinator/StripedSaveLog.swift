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
    static let magic = Array("STRSAVE1".utf8)
    /// The signature and the last save number (8 bytes, little endian) before the records.
    static let headerSize = 16

    let url: URL
    private let descriptor: Int32
    /// The length of the header and whole records; a torn record after them is overwritten.
    private var validLength = 0
    /// The number of the last save ever logged here, kept when the log is emptied, so that
    /// numbers keep growing whatever the stores say.
    private(set) var lastNumber: Int64 = 0

    private init(url: URL, descriptor: Int32) {
        self.url = url
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The log of the folder `folder`.
    static func url(inFolder folder: URL) -> URL { folder.appendingPathComponent(fileName) }

    /// Opens the log of `folder`, making it when there is none, and waits for its lock.
    ///
    /// - Throws: ``StoreError/Code/io`` naming the file when it cannot be made, opened or locked.
    static func lock(folder: URL) throws -> StripedSaveLog {
        let url = url(inFolder: folder)
        var descriptor = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        let isNew = descriptor >= 0
        if !isNew, errno == EEXIST { descriptor = open(url.path, O_RDWR | O_CLOEXEC) }
        guard descriptor >= 0 else { throw ioError("Could not open the save log '\(url.path)'") }
        let log = StripedSaveLog(url: url, descriptor: descriptor)
        // A new file's name must reach the disk before any entry written in it counts.
        if isNew { try flushFolder(folder, log: url) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw ioError("Could not lock the save log '\(url.path)'") }
        }
        return log
    }

    /// Opens and locks the log of `folder` when it holds anything; `nil` when there is none or
    /// it is empty.
    static func lockIfPending(folder: URL) throws -> StripedSaveLog? {
        let path = url(inFolder: folder).path
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > headerSize else { return nil }
        return try lock(folder: folder)
    }

    /// The log's entries, oldest first; reads the last save number too. A record cut short
    /// or damaged at the very end is the remains of an append a crash interrupted before it was
    /// flushed: no store was written for it, and it is dropped.
    ///
    /// - Throws: ``StoreError/Code/corrupt`` naming the file and position when the file is not
    ///   a save log, a record before the last fails its checksum, or a whole record does not
    ///   decode against `schema`; or ``StoreError/Code/io``.
    func entries(schema: ModelSchema) throws -> [Entry] {
        let bytes = try contents()
        let source = "The save log '\(url.path)'"
        guard bytes.count >= Self.headerSize else {
            // A log made but never written, or cut inside its header: the next append writes it.
            validLength = 0
            return []
        }
        var header = BinaryReader(bytes, source: source)
        guard Array(try header.readRaw(Self.magic.count, "the log's signature")) == Self.magic else {
            throw header.corrupt("it does not start with a Strata save log's signature")
        }
        lastNumber = Int64(bitPattern: try header.readFixed64("the last save number"))
        var entries: [Entry] = []
        var offset = Self.headerSize
        while bytes.count - offset >= 8 {
            var recordHeader = BinaryReader(bytes, from: offset, source: source)
            let length = Int(try recordHeader.readFixed32("a record's length"))
            let checksum = try recordHeader.readFixed32("a record's checksum")
            let start = offset + 8
            // Only the last record can be torn: each append is flushed before the next.
            guard length <= bytes.count - start else { break }
            guard CRC32C.checksum(bytes[start..<start + length]) == checksum else {
                guard start + length == bytes.count else {
                    throw recordHeader.corrupt("the record at byte \(offset) fails its checksum", at: offset)
                }
                break
            }
            var reader = BinaryReader(bytes, from: start, source: source)
            entries.append(try reader.readEntry(schema: schema))
            guard reader.offset == start + length else {
                throw reader.corrupt("the record at byte \(offset) is longer than its contents")
            }
            offset = start + length
        }
        validLength = offset
        return entries
    }

    /// Appends `entry` after the whole records read by ``entries(schema:)``, records its number
    /// as the last in the header, and flushes both to disk: from then on the save is decided.
    /// When flushing fails, the record is cut off again.
    func append(_ entry: Entry) throws {
        var payload = BinaryWriter()
        payload.write(entry: entry)
        var record = BinaryWriter(reservingCapacity: payload.bytes.count + 8)
        record.write(fixed: UInt32(payload.bytes.count))
        record.write(fixed: CRC32C.checksum(payload.bytes))
        record.write(raw: payload.bytes)
        var header = BinaryWriter()
        header.write(raw: Self.magic)
        header.write(fixed: UInt64(bitPattern: max(entry.number, lastNumber)))
        let start = max(validLength, Self.headerSize)
        try write(record.bytes, at: start)
        try write(header.bytes, at: 0)
        guard ftruncate(descriptor, off_t(start + record.bytes.count)) == 0, fdatasync(descriptor) == 0 else {
            let error = Self.ioError("Could not flush the save log '\(url.path)' to disk")
            _ = ftruncate(descriptor, off_t(start))
            throw error
        }
        validLength = start + record.bytes.count
        lastNumber = max(entry.number, lastNumber)
    }

    /// Empties the log of its records, keeping the last save number: every store its entries
    /// name has recorded them. Not flushed: entries that come back after a crash are found
    /// applied.
    func clear() throws {
        guard validLength > Self.headerSize else { return }
        guard ftruncate(descriptor, off_t(Self.headerSize)) == 0 else {
            throw Self.ioError("Could not empty the save log '\(url.path)'")
        }
        validLength = Self.headerSize
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
        let unique = Dictionary(
            folders.map { ($0.resolvingSymlinksInPath().standardizedFileURL.path, $0) },
            uniquingKeysWith: { first, _ in first })
        return try unique.keys.sorted().map { try lock(folder: unique[$0]!) }
    }

    /// Empties the log when every store its entries name is among `stores` and has recorded
    /// them; otherwise leaves it for the stores still to come.
    func clearIfApplied(byAdded stores: [any IncrementalStore], schema: ModelSchema) throws {
        let recorded = Dictionary(
            stores.map { ($0.identifier, PersistentStoreCoordinator.recordedSave(of: $0)) },
            uniquingKeysWith: { first, _ in first })
        let pending = try entries(schema: schema).contains { entry in
            entry.changes.contains { (recorded[$0.storeIdentifier] ?? 0) < entry.number }
        }
        if !pending { try clear() }
    }
}
