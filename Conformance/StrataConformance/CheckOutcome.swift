/// How one check ended.
public enum CheckOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The store did what the check asks.
    case passed
    /// The store did something else; the message says what was expected and what happened,
    /// naming the object and key.
    case failed(String)
    /// The check did not run because the store lacks what it requires.
    case skipped(ConformanceRequirement)
    /// The store's author waived the check for the given reason; `wouldPass` says whether it
    /// passes anyway (a waiver that can be removed).
    case waived(reason: String, wouldPass: Bool)

    /// Whether the outcome lets a run succeed: anything but a failure.
    public var isAcceptable: Bool {
        if case .failed = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .passed: "passed"
        case .failed(let message): "failed: \(message)"
        case .skipped(let requirement): "skipped: requires \(requirement)"
        case .waived(let reason, let wouldPass): "waived (\(wouldPass ? "passes anyway" : "fails")): \(reason)"
        }
    }
}

/// The outcome of one check in a run.
public struct CheckResult: Sendable, Hashable {
    /// The check.
    public let check: ConformanceCheck
    /// How it ended.
    public let outcome: CheckOutcome
}
