extension ConformanceCategory {
    /// A check of this category whose identifier is the category's letter, a dot, and `name`.
    func check(
        _ name: String, _ summary: String, requires requirement: ConformanceRequirement? = nil,
        body: @escaping @Sendable (CheckHarness) throws -> Void
    ) -> ConformanceCheck {
        ConformanceCheck("\(rawValue).\(name)", self, summary, requires: requirement, body: body)
    }
}
