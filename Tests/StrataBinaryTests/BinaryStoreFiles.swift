import Foundation
@_spi(StoreAuthoring) import Strata

@testable import StrataBinary

/// Helpers that make binary store files for tests.
enum BinaryStoreFiles {
    /// Rewrites the closed store file at `url` so that it claims the format version after the
    /// current one, with both checksums made right again, as a newer Strata would write it.
    @Sendable static func markNewerFormatVersion(at url: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        let newer = BinaryStoreFormat.version + 1
        let version = BinaryStoreFormat.versionOffset
        bytes[version] = UInt8(truncatingIfNeeded: newer)
        bytes[version + 1] = UInt8(truncatingIfNeeded: newer >> 8)
        let header = BinaryStoreFormat.headerChecksumOffset
        store(CRC32C.checksum(bytes[..<header]), at: header, in: &bytes)
        fixChecksum(of: &bytes)
        try Data(bytes).write(to: url)
    }

    /// Makes the file checksum in the trailer of `bytes` match the bytes before it again.
    static func fixChecksum(of bytes: inout [UInt8]) {
        let end = bytes.count - BinaryStoreFormat.trailerLength
        store(CRC32C.checksum(bytes[..<end]), at: end, in: &bytes)
    }

    private static func store(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}
