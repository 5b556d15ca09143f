import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Replaces a whole-file store's file so that a crash at any instant leaves the old file or the
/// new one, never a mix: the new contents go to a temporary file in the same directory, which is
/// flushed to disk, renamed over the old file, and then the directory itself is flushed so that
/// the rename survives a power loss.
///
/// ```swift
/// try AtomicFileReplacement.replace(url, storeName: "XML") { temporary in
///     try encoder.write(contents, to: temporary)
/// }
/// ```
@_spi(StoreAuthoring) public enum AtomicFileReplacement {
    /// Replaces the file at `url` with the one `write` makes at the temporary URL it is given.
    ///
    /// When `write` throws, or flushing or renaming fails, the temporary file is removed and the
    /// file at `url` is untouched. A ``StoreError`` from `write` is rethrown as it is; any other
    /// failure becomes a ``StoreError/Code/io`` error naming `storeName` and the file.
    public static func replace(
        _ url: URL, storeName: String, writingTemporaryFile write: (URL) throws -> Void
    ) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try write(temporary)
            try flush(temporary.path, storeName: storeName)
            guard rename(temporary.path, url.path) == 0 else {
                throw ioError(storeName, "Could not rename '\(temporary.path)' over '\(url.path)'")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if let error = error as? StoreError { throw error }
            throw StoreError(
                code: .io,
                message: "Could not write the \(storeName) store at '\(url.path)': \(error.localizedDescription)",
                underlying: error)
        }
        try flush(directory.path, storeName: storeName)
    }

    /// Replaces the file at `url` with `contents`, as ``replace(_:storeName:writingTemporaryFile:)``
    /// does. A write that fails names the system's reason (a full disk, a read-only file system),
    /// which Foundation's `Data.write(to:)` does not on every platform.
    public static func replace(_ url: URL, storeName: String, contents: [UInt8]) throws {
        try replace(url, storeName: storeName) { temporary in
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard descriptor >= 0 else { throw ioError(storeName, "Could not create '\(temporary.path)'") }
            defer { close(descriptor) }
            var written = 0
            while written < contents.count {
                let count = contents.withUnsafeBytes {
                    write(descriptor, $0.baseAddress! + written, $0.count - written)
                }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw ioError(storeName, "Could not write '\(temporary.path)'") }
                written += count
            }
        }
    }

    /// Flushes the file or directory at `path` to disk.
    private static func flush(_ path: String, storeName: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ioError(storeName, "Could not open '\(path)' to flush it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ioError(storeName, "Could not flush '\(path)' to disk") }
    }

    private static func ioError(_ storeName: String, _ what: String) -> StoreError {
        StoreError(code: .io, message: "\(what) for the \(storeName) store: \(String(cString: strerror(errno))).")
    }
}
