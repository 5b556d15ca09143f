import Foundation

extension StoreType {
    /// A store type for a whole-file store: `makeStore` gives the ``AtomicStore`` for a URL, and
    /// the core's adapter makes it incremental. Metadata is read and written through
    /// ``AtomicStore/load()`` and ``AtomicStore/write(_:)``; destroying removes the file and its
    /// lock file; replacing loads the source and writes its contents to the destination with
    /// ``AtomicStore/write(_:)``. A store opened for writing locks its file: opening it for writing
    /// again, writing its metadata or replacing it, from another coordinator or process, is
    /// ``StoreError/Code/inUse`` until the store is removed. `variant`, `recognize` and
    /// `describeFormat` are as in ``init(name:variant:open:readMetadata:writeMetadata:destroy:replace:recognize:describeFormat:migrateInPlace:temporaryURL:)``.
    public static func atomic(
        name: String, variant: (any Hashable & Sendable)? = nil,
        recognize: (@Sendable (_ prefix: [UInt8]) -> Bool)? = nil,
        describeFormat: (@Sendable (URL) throws -> String)? = nil,
        makeStore: @escaping @Sendable (URL?) throws -> any AtomicStore
    ) -> StoreType {
        StoreType(
            name: name, variant: variant,
            open: { request in try makeStore(request.url).incrementalStore(for: request) },
            readMetadata: { url in
                var metadata = try makeStore(url).load()?.metadata
                metadata?.userInfo[AtomicStoreHistory.metadataKey] = nil
                return metadata
            },
            writeMetadata: { metadata, url in
                let store = try makeStore(url)
                try StoreFileLock.whileLocked(url, storeName: name) {
                    guard var contents = try store.load() else {
                        throw StoreError(
                            code: .unknownObject,
                            message: "There is no \(name) store at '\(url.path)' to write metadata to.")
                    }
                    try AtomicStoreHistory.checkUnreserved(
                        metadata.userInfo, storeName: "The \(name) store at '\(url.path)'")
                    let history = contents.metadata.userInfo[AtomicStoreHistory.metadataKey]
                    contents.metadata = metadata
                    contents.metadata.userInfo[AtomicStoreHistory.metadataKey] = history
                    try store.write(contents)
                }
            },
            destroy: { url in
                let files = [url.path, StoreFileLock.sideFile(of: url)]
                do {
                    for file in files where FileManager.default.fileExists(atPath: file) {
                        try FileManager.default.removeItem(atPath: file)
                    }
                } catch {
                    throw StoreError(
                        code: .io, message: "Could not remove the \(name) store at '\(url.path)'.", underlying: error)
                }
            },
            replace: { destination, source in
                guard let contents = try makeStore(source).load() else {
                    throw StoreError(
                        code: .unknownObject, message: "There is no \(name) store at '\(source.path)' to copy from.")
                }
                let store = try makeStore(destination)
                try StoreFileLock.whileLocked(destination, storeName: name) { try store.write(contents) }
            },
            recognize: recognize, describeFormat: describeFormat)
    }
}
