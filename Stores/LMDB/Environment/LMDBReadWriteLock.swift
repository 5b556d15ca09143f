#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX readers–writer lock: every transaction of an environment holds it shared, and
/// changing the map's size holds it exclusively, because liblmdb allows `mdb_env_set_mapsize`
/// only while the process has no transaction open.
final class LMDBReadWriteLock: @unchecked Sendable {
    // Safe: the pthread lock is allocated once, never moved, and only used through the
    // thread-safe pthread_rwlock functions; it is destroyed in deinit, when no thread holds it.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` holding the lock shared.
    func withShared<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` holding the lock exclusively.
    func withExclusive<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
