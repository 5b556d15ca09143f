/// Thrown by a check's body when the store under test did something else than expected.
struct CheckFailure: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}

/// Fails the check with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CheckFailure(message()) }
}

/// Fails the check unless `actual` equals `expected`, saying what `subject` was.
func expectEqual<T: Equatable>(_ actual: T, _ expected: T, _ subject: @autoclosure () -> String) throws {
    if actual != expected { throw CheckFailure("\(subject()): expected \(expected), got \(actual).") }
}

/// Unwraps `value` or fails the check with `message`.
func require<T>(_ value: T?, _ message: @autoclosure () -> String) throws -> T {
    guard let value else { throw CheckFailure(message()) }
    return value
}

/// Runs `body`, which must throw an error that `matches` accepts; fails the check otherwise.
func expectError(
    _ expectation: String, _ body: () throws -> Void, matches: (any Error) -> Bool
) throws {
    do {
        try body()
    } catch {
        if matches(error) { return }
        throw CheckFailure("Expected \(expectation), got \(type(of: error)): \(error).")
    }
    throw CheckFailure("Expected \(expectation), but nothing was thrown.")
}
