/// The families of checks. Every category lists its checks in ``checks``, so a new category
/// cannot be added without its checks, and ``ConformanceSuite/checks`` always holds all of them.
public enum ConformanceCategory: String, Sendable, Hashable, CaseIterable, Codable {
    case lifecycle = "A"
    case identity = "B"
    case attributes = "C"
    case concurrency = "K"
    case striping = "L"
    case migration = "O"
    case errors = "P"

    /// The category's name in reports.
    public var title: String {
        switch self {
        case .lifecycle: "Lifecycle and metadata"
        case .identity: "Identity"
        case .attributes: "Attribute round trip"
        case .concurrency: "Concurrency"
        case .striping: "Striping"
        case .migration: "Moving data"
        case .errors: "Errors"
        }
    }

    /// The category's checks.
    var checks: [ConformanceCheck] {
        switch self {
        case .lifecycle: LifecycleChecks.all
        case .identity: IdentityChecks.all
        case .attributes: AttributeChecks.all
        case .concurrency: ConcurrencyChecks.all
        case .striping: StripingChecks.all
        case .migration: MigrationChecks.all
        case .errors: ErrorChecks.all
        }
    }
}
