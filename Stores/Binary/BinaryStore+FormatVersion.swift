import Foundation
import Strata

extension BinaryStore {
    /// The format version in the header of the binary store file at `url`, read without
    /// reading the rest of the file.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/io`` when the file cannot be read,
    ///   ``StoreError/Code/corrupt`` when it does not start with a binary store's header.
    public static func formatVersion(ofStoreAt url: URL) throws -> UInt16 {
        let header: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            header = try handle.read(upToCount: BinaryStoreFormat.headerLength) ?? Data()
        } catch {
            throw StoreError(code: .io, message: "Could not read the binary store at '\(url.path)'.", underlying: error)
        }
        var reader = BinaryReader([UInt8](header), source: "'\(url.path)'")
        guard header.starts(with: BinaryStoreFormat.magic) else {
            throw reader.corrupt("the file does not start with the binary store's magic bytes", at: 0)
        }
        _ = try reader.readRaw(BinaryStoreFormat.magic.count, "the magic bytes")
        return try reader.readFixed16("the format version")
    }
}
