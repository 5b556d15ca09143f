import Foundation
@_spi(StoreAuthoring) import Strata

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What Strata knew of an LMDB data file when its pages last passed ``LMDBFileCheck``, kept in
/// the side file `<file>-verified`: the file's device, inode, size, modification and change
/// times (to the nanosecond), and a CRC-32C of the fields of its two meta pages, which name the newest
/// transaction and every tree's root.
///
/// A file that still matches its record has not been written since it was verified: any write
/// moves its change time, which no program can set back, and a file copied, restored or
/// unpacked is a new inode with a new change time. Opening such a file can skip the whole-file
/// check (``LMDBVerification/whenChanged``). The record is a hint, never trusted on its own: a
/// missing, unreadable, damaged or mismatched one means "check the file".
struct LMDBVerificationRecord: Equatable {
    /// The side file's suffix, after the data file's name.
    static let suffix = "-verified"
    static let magic = Array("STRLMDBV".utf8)

    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// The modification and change times: seconds, then nanoseconds.
    var modified: [Int64]
    var changed: [Int64]
    var metaChecksum: UInt32

    /// The record of the data file at `path` as it is now; `nil` when it cannot be read.
    static func current(path: String) -> Self? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        // The meta pages: page 0 gives the page size (at 16 + 24 bytes into it, as LMDBFileCheck
        // reads it); each page's header and meta fields are its first 152 bytes.
        var meta = [UInt8](repeating: 0, count: 2 * metaLength)
        guard pread(descriptor, &meta, metaLength, 0) == metaLength else { return nil }
        let pageSize = Int(meta[40]) | Int(meta[41]) << 8 | Int(meta[42]) << 16 | Int(meta[43]) << 24
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return nil }
        let second = meta.withUnsafeMutableBytes {
            pread(descriptor, $0.baseAddress! + metaLength, metaLength, off_t(pageSize))
        }
        guard second == metaLength else { return nil }
        return Self(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: [Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec)],
            changed: [Int64(status.st_ctim.tv_sec), Int64(status.st_ctim.tv_nsec)],
            metaChecksum: CRC32C.checksum(meta))
    }

    /// The record kept beside the data file at `path`; `nil` when there is none or it is not
    /// a sound record.
    static func kept(forFileAt path: String) -> Self? {
        let descriptor = open(path + suffix, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: encodedSize + 1)
        guard read(descriptor, &bytes, bytes.count) == encodedSize else { return nil }
        return decode(Array(bytes.prefix(encodedSize)))
    }

    /// Keeps this record beside the data file at `path`. A record that cannot be written is
    /// no loss: the file is checked at its next opening.
    func keep(forFileAt path: String) {
        let descriptor = open(path + Self.suffix, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = encoded
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// The bytes of a meta page that hold anything: the page header and LMDB's meta fields.
    private static let metaLength = 152

    /// Removes the record beside the data file at `path`, if any.
    static func remove(forFileAt path: String) {
        unlink(path + suffix)
    }

    private static let encodedSize = 8 + 7 * 8 + 4 + 4

    private var encoded: [UInt8] {
        var writer = BinaryWriter()
        writer.write(raw: Self.magic)
        for value in [device, inode] + ([size] + modified + changed).map({ UInt64(bitPattern: $0) }) {
            writer.write(fixed: value)
        }
        writer.write(fixed: metaChecksum)
        writer.write(fixed: CRC32C.checksum(writer.bytes))
        return writer.bytes
    }

    private static func decode(_ bytes: [UInt8]) -> Self? {
        guard bytes.starts(with: magic) else { return nil }
        var reader = BinaryReader(bytes, from: magic.count, source: "")
        guard let values = try? (0..<7).map({ _ in try reader.readFixed64("") }),
            let metaChecksum = try? reader.readFixed32(""), let checksum = try? reader.readFixed32(""),
            CRC32C.checksum(bytes.prefix(bytes.count - 4)) == checksum
        else { return nil }
        return Self(
            device: values[0], inode: values[1], size: Int64(bitPattern: values[2]),
            modified: values[3...4].map { Int64(bitPattern: $0) }, changed: values[5...6].map { Int64(bitPattern: $0) },
            metaChecksum: metaChecksum)
    }
}
