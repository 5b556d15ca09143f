import Foundation
import Strata

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file of a journal store: a 33-byte header line, `StrataJournal`, the format version and
/// the committed length of the file in 16 digits; then one JSON line per save
/// (``JournalEntry``).
///
/// A save appends its line after the committed length, flushes it, then rewrites the header
/// with the new length and flushes again. A save cut short by a crash leaves bytes past the
/// committed length, which are ignored and overwritten by the next save; a file shorter than
/// its header says was damaged, and is refused.
public enum JournalFile {
    static let magic = "StrataJournal "
    /// The format this store writes and the newest it reads.
    static let formatVersion = 1
    static let headerLength = 33

    /// The header of a file whose first `committedLength` bytes hold saved entries.
    static func header(committedLength: Int, version: Int = formatVersion) -> Data {
        let digits = String(committedLength)
        return Data((magic + "\(version) " + String(repeating: "0", count: 16 - digits.count) + digits + "\n").utf8)
    }

    /// The journal at `url` replayed, and its committed length; `nil` when there is no file or
    /// it is empty (a store never saved).
    ///
    /// - Throws: ``StoreError`` with code `io` when the file cannot be read, `corrupt` naming
    ///   the file and line when it is not a journal or is damaged, `unsupported` when it is of a
    ///   newer format.
    static func read(_ url: URL) throws -> (contents: JournalContents, committedLength: Int)? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        let data: Data
        do {
            guard !isDirectory.boolValue else { throw CocoaError(.fileReadUnknown) }
            data = try Data(contentsOf: url)
        } catch {
            throw StoreError(
                code: .io, message: "Could not read the journal store at '\(url.path)'.", underlying: error)
        }
        guard !data.isEmpty else { return nil }
        let bytes = [UInt8](data)
        guard bytes.count >= headerLength, bytes.starts(with: Array(magic.utf8)), bytes[headerLength - 1] == 0x0A,
            let version = Int(String(decoding: bytes[14..<15], as: UTF8.self)),
            let committed = Int(String(decoding: bytes[16..<32], as: UTF8.self))
        else {
            throw StoreError(code: .corrupt, message: "'\(url.path)' is not a journal store: its header is not one.")
        }
        guard version <= formatVersion else {
            throw StoreError(
                code: .unsupported,
                message: "'\(url.path)' is a journal of format \(version); this store reads up to \(formatVersion).")
        }
        guard committed >= headerLength, committed <= bytes.count else {
            throw StoreError(
                code: .corrupt,
                message: "The journal store at '\(url.path)' is cut short: its header says \(committed) bytes, "
                    + "the file has \(bytes.count).")
        }
        var contents: JournalContents?
        var line = 1
        for text in bytes[headerLength..<committed].split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        {
            line += 1
            let entry: JournalEntry
            do {
                entry = try JSONDecoder().decode(JournalEntry.self, from: Data(text))
            } catch {
                throw StoreError(
                    code: .corrupt, message: "Line \(line) of the journal store at '\(url.path)' is damaged.",
                    underlying: error)
            }
            if contents == nil {
                guard let metadata = entry.metadata else {
                    throw StoreError(
                        code: .corrupt, message: "The journal store at '\(url.path)' does not start with its metadata.")
                }
                contents = JournalContents(metadata: metadata)
            }
            try contents?.apply(entry, line: line, path: url.path)
        }
        guard bytes[committed - 1] == 0x0A else {
            throw StoreError(
                code: .corrupt,
                message: "The journal store at '\(url.path)' is damaged: its committed length ends inside an entry.")
        }
        guard let contents else {
            throw StoreError(code: .corrupt, message: "The journal store at '\(url.path)' holds no saved entry.")
        }
        return (contents, committed)
    }

    /// The committed length the header of the journal at `url` gives; 0 when there is no file
    /// or it is empty, `nil` when the header cannot be read.
    static func committedLength(at url: URL) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            return FileManager.default.fileExists(atPath: url.path) ? nil : 0
        }
        defer { try? handle.close() }
        // `read(upToCount:)` gives nil at the end of the file: an empty file.
        guard let header = try? handle.read(upToCount: headerLength) ?? Data() else { return nil }
        if header.isEmpty { return 0 }
        guard header.count == headerLength else { return nil }
        return Int(String(decoding: header[16..<32], as: UTF8.self))
    }

    /// The device and inode of the file at `url`, for a store to notice another file put in
    /// the place of the one it read; `nil` when there is no file.
    static func identity(at url: URL) -> [UInt64]? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// Writes a new journal at `url` whose one entry is `entry`: a temporary file, flushed, then
    /// renamed over any empty file there, and the folder flushed, so that the new journal
    /// survives a crash of the system once this returns; returns its committed length.
    static func create(_ url: URL, with entry: JournalEntry) throws -> Int {
        let line = try encode(entry)
        let contents = header(committedLength: headerLength + line.count) + line
        let temporary = url.path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure("create", url) }
        let wrote = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, contents.count) }
        let flushed = wrote == contents.count && fsync(descriptor) == 0
        close(descriptor)
        guard flushed, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            throw failure("create", url)
        }
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY)
        defer { if folder >= 0 { close(folder) } }
        guard folder >= 0, fsync(folder) == 0 else { throw failure("flush the folder of", url) }
        return contents.count
    }

    /// Appends `entry` to the journal at `url` after its first `committedLength` bytes and
    /// commits it; returns the new committed length. When it fails, the committed entries
    /// are as they were.
    static func append(_ entry: JournalEntry, to url: URL, after committedLength: Int) throws -> Int {
        let line = try encode(entry)
        let committed = committedLength + line.count
        let descriptor = open(url.path, O_RDWR)
        guard descriptor >= 0 else { throw failure("open", url) }
        defer { close(descriptor) }
        let wrote = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, line.count, off_t(committedLength)) }
        guard wrote == line.count, fsync(descriptor) == 0 else { throw failure("append to", url) }
        let newHeader = header(committedLength: committed)
        let rewrote = newHeader.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, newHeader.count, 0) }
        guard rewrote == newHeader.count, fsync(descriptor) == 0 else { throw failure("commit", url) }
        return committed
    }

    /// Rewrites the closed journal at `url` so that it claims the next format version, for
    /// the conformance suite's check that newer files are refused.
    @Sendable public static func markNewerFormatVersion(at url: URL) throws {
        var data = try Data(contentsOf: url)
        let committed = Int(String(decoding: data[16..<32], as: UTF8.self)) ?? data.count
        data.replaceSubrange(0..<headerLength, with: header(committedLength: committed, version: formatVersion + 1))
        try data.write(to: url)
    }

    private static func encode(_ entry: JournalEntry) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(entry) + Data([0x0A])
    }

    private static func failure(_ action: String, _ url: URL) -> StoreError {
        StoreError(
            code: .io,
            message: "Could not \(action) the journal store at '\(url.path)': \(String(cString: strerror(errno))).")
    }
}
