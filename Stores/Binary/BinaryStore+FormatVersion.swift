import Foundation
import Strata

extension BinaryStore {
    /// The format version in the header of the binary store file at `url`, read without
    /// reading the rest of the file.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/io` when the file cannot be read,
    ///   `StoreError/Code/corrupt` when it does not start with a binary store's header.
    static func formatVersion(ofStoreAt url: URL) throws -> UInt16 {
        let header: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            header = try handle.read(upToCount: BinaryStoreFormat.headerLength) ?? Data()
        } catch {
            throw StoreError(code: .io, message: "Could not read the binary store at '\(url.path)'.", underlying: error)
        }
        return try BinaryStoreDecoder(bytes: [UInt8](header), source: "'\(url.path)'").formatVersion()
    }
}
