import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The right of a writable whole-file store to write its file: a ``StoreFileLock`` taken when
/// the store opens, held while any coordinator has the store added, and given up when the last
/// one removes it (or when the store goes away), so that another coordinator or process can open
/// the file for writing.
///
/// A store that was given up takes the lock again when it is added again or saves; when the file
/// changed in between, its objects in memory are out of date, and that is refused with
/// ``StoreError/Code/inUse``. A save while the lock is held is refused the same way when the
/// file was replaced or changed by a program that takes no lock: the save would otherwise
/// overwrite what that program wrote.
final class AtomicStoreWriterLock: Sendable {
    private struct State: Sendable {
        var lock: StoreFileLock?
        var attachments = 0
        /// The store file's device, inode, size and modification time when last read or written.
        var fileIdentity: [Int64]?
    }

    private let url: URL
    private let storeName: String
    private let state: Locked<State>

    /// Locks the file at `url`, for the store `storeName` names in messages.
    init(url: URL, storeName: String) throws {
        self.url = url
        self.storeName = storeName
        state = Locked(State(lock: try StoreFileLock.acquire(for: url, storeName: storeName)))
    }

    /// Remembers the file as it is now, after the store read or wrote it.
    func recordFile() {
        let identity = Self.identity(of: url)
        state.withLock { $0.fileIdentity = identity }
    }

    /// The store is being added to a coordinator: takes the lock again if it was given up.
    func attach() throws {
        try state.withLock { state in
            try reacquire(&state)
            state.attachments += 1
        }
    }

    /// The store was removed from a coordinator: gives up the lock when no coordinator has it.
    func detach() {
        state.withLock { state in
            state.attachments = max(state.attachments - 1, 0)
            if state.attachments == 0 { state.lock = nil }
        }
    }

    /// The store is about to write: takes the lock again if it was given up, and checks that
    /// the file is the one the store last read or wrote.
    func ensureHeld() throws { try state.withLock { try reacquire(&$0) } }

    private func reacquire(_ state: inout State) throws {
        guard state.lock == nil else {
            guard Self.identity(of: url) == state.fileIdentity else {
                throw StoreError(
                    code: .inUse,
                    message: "The file of the \(storeName) store at '\(url.path)' was replaced or changed by another "
                        + "program while the store was open, so its objects are out of date and the save would "
                        + "overwrite what is there now; remove the store and open the file again.")
            }
            return
        }
        let lock = try StoreFileLock.acquire(for: url, storeName: storeName)
        guard Self.identity(of: url) == state.fileIdentity else {
            throw StoreError(
                code: .inUse,
                message: "The \(storeName) store at '\(url.path)' was changed by another coordinator or process "
                    + "while this one was removed, so its objects are out of date; open the file again.")
        }
        state.lock = lock
    }

    private static func identity(of url: URL) -> [Int64]? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        return [
            Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(modified.tv_sec),
            Int64(modified.tv_nsec),
        ]
    }
}
