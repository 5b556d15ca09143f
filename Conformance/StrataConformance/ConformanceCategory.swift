/// The families of checks. Every category lists its checks in ``checks``, so a new category
/// cannot be added without its checks, and ``ConformanceSuite/checks`` always holds all of them.
public enum ConformanceCategory: String, Sendable, Hashable, CaseIterable, Codable {
    case attributes = "C"

    /// The category's name in reports.
    public var title: String {
        switch self {
        case .attributes: "Attribute round trip"
        }
    }

    /// The category's checks.
    var checks: [ConformanceCheck] {
        switch self {
        case .attributes: AttributeChecks.all
        }
    }
}
