import Foundation

/// A value shared between threads, read and written only while its lock is held.
///
/// Strata uses it where the standard library offers `Synchronization.Mutex`: the lock is an
/// `NSLock`, a pthread mutex on Linux, which the thread sanitizer understands, so concurrency
/// tests run under `--sanitize=thread` report real races only. (The sanitizer cannot see the
/// futex under `Mutex` on Linux and reports every access inside `withLock` as a race.)
package final class Locked<Value>: @unchecked Sendable {
    // Sendable because `value` is touched only inside `withLock`, while `lock` is held, and
    // values enter and leave through `sending` parameters and results, as with `Mutex`.
    private let lock = NSLock()
    private nonisolated(unsafe) var value: Value

    /// Creates a lock around `value`.
    package init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    package func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
