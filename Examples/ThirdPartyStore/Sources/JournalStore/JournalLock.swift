import Foundation
import Strata

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The right to write one journal: an exclusive `flock` on the side file `<journal>.lock`,
/// held from ``acquire(for:)`` until the lock is released or goes away. A second writer, in
/// this process or another, is refused with `inUse`.
final class JournalLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// The side file of the journal at `url`.
    static func sideFile(of url: URL) -> String { url.path + ".lock" }

    /// Locks the journal at `url`.
    ///
    /// - Throws: ``StoreError`` with code `inUse` naming the file when another writer holds it,
    ///   `io` when the lock file cannot be opened.
    static func acquire(for url: URL) throws -> JournalLock {
        let descriptor = open(sideFile(of: url), O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(code: .io, message: "Could not open the lock file of the journal store at '\(url.path)'.")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw StoreError(
                code: .inUse, message: "The journal store at '\(url.path)' is open for writing elsewhere.")
        }
        return JournalLock(descriptor: descriptor)
    }
}
