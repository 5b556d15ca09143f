import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An exclusive advisory lock (`flock`) on the side file `<store file>.lock`, held from
/// ``acquire(for:storeName:)`` until the lock is deallocated, which removes the side file.
///
/// The lock cannot live on the store's own file: saving renames a new file over it, so a second
/// opener would lock the new inode while the first still holds the old one. The side file is
/// never replaced; it is only removed by its holder, while still holding it. An opener that
/// locked a side file that was removed meanwhile notices that the path no longer names the file
/// it locked, and tries again. `flock` locks belong to the open file, so two openings in one
/// process exclude each other as two processes do, and the system drops the lock of a process
/// that dies.
final class StoreFileLock: Sendable {
    /// The side file.
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if let held = Self.identity(ofDescriptor: descriptor), Self.identity(ofPath: path) == held { unlink(path) }
        close(descriptor)
    }

    /// The path of the side file of the store file `url`.
    static func sideFile(of url: URL) -> String { url.path + ".lock" }

    /// Locks the side file of `url`.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/inUse`` naming the file when another
    ///   opening holds the lock, or ``StoreError/Code/io`` when the side file cannot be made.
    static func acquire(for url: URL, storeName: String) throws -> StoreFileLock {
        let path = sideFile(of: url)
        try StoreSideFiles.checkNotLinked([path], storeName: "the \(storeName) store at '\(url.path)'")
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw StoreError(
                    code: .io,
                    message: "Could not make the lock file '\(path)' of the \(storeName) store at '\(url.path)': "
                        + "\(String(cString: strerror(errno))).")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let failure = errno
                close(descriptor)
                guard failure == EWOULDBLOCK else {
                    throw StoreError(
                        code: .io,
                        message: "Could not lock '\(path)' for the \(storeName) store at '\(url.path)': "
                            + "\(String(cString: strerror(failure))).")
                }
                throw StoreError(
                    code: .inUse,
                    message: "The \(storeName) store at '\(url.path)' is already open for writing in another "
                        + "coordinator or process (it holds '\(path)'). Remove that store first, or open this one "
                        + "read-only.")
            }
            if let locked = identity(ofDescriptor: descriptor), identity(ofPath: path) == locked {
                return StoreFileLock(path: path, descriptor: descriptor)
            }
            close(descriptor)
        }
    }

    /// Runs `body` holding the lock on the side file of `url` (see ``acquire(for:storeName:)``).
    static func whileLocked<T>(_ url: URL, storeName: String, _ body: () throws -> T) throws -> T {
        let lock = try acquire(for: url, storeName: storeName)
        return try withExtendedLifetime(lock) { try body() }
    }

    /// The device and inode of an open file.
    private static func identity(ofDescriptor descriptor: Int32) -> [UInt64]? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// The device and inode of the file at `path`; `nil` when there is none.
    private static func identity(ofPath path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
