import Foundation
import Strata

extension StoreType {
    /// Journal stores, named "Journal": one plain text file each, with a `.lock` side file
    /// while one is open for writing. A file is recognised by its header line.
    public static let journal = StoreType(
        name: "Journal",
        open: { try JournalStore.open($0) },
        readMetadata: { url in try JournalFile.read(url)?.contents.metadata },
        writeMetadata: { metadata, url in
            let lock = try JournalLock.acquire(for: url)
            defer { withExtendedLifetime(lock) {} }
            guard let (contents, committed) = try JournalFile.read(url) else {
                throw StoreError(code: .unknownObject, message: "There is no journal store at '\(url.path)'.")
            }
            _ = try JournalFile.append(
                JournalEntry(metadata: metadata, nextReference: contents.nextReference), to: url,
                after: committed)
        },
        destroy: { url in
            for path in [url.path, JournalLock.sideFile(of: url)] where FileManager.default.fileExists(atPath: path) {
                do {
                    try FileManager.default.removeItem(atPath: path)
                } catch {
                    throw StoreError(
                        code: .io, message: "Could not remove the journal store at '\(url.path)'.", underlying: error)
                }
            }
        },
        recognize: { $0.starts(with: Array(JournalFile.magic.utf8)) })
}
