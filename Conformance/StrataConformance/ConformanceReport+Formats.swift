import Foundation

extension ConformanceReport {
    /// The report as JSON: the run's facts, counts, and one entry per check.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(
            JSONReport(
                suiteVersion: suiteVersion, storeType: storeType, declaredCapabilities: declaredCapabilities.names,
                seed: String(seed), succeeded: succeeded, counts: counts, unknownWaivers: unknownWaivers,
                skipped: results.compactMap(JSONReport.Skip.init), checks: results.map(JSONReport.Check.init)))
    }

    /// The report as Markdown: a summary, the failures, skips grouped by capability, waivers,
    /// then a table of every check.
    public func markdown() -> String {
        var lines = [
            "# Conformance of \(storeType)", "",
            "Suite \(suiteVersion) · seed \(seed) · capabilities: \(declaredCapabilities)", "",
            counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: " · "), "",
        ]
        if !failures.isEmpty {
            lines +=
                ["## Failures", ""] + failures.map { "- `\($0.check.id)`: \(Self.escaped("\($0.outcome)"))" } + [""]
        }
        if !skipsByRequirement.isEmpty {
            lines += ["## Skipped", ""]
            for (requirement, checks) in skipsByRequirement.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                lines.append("- requires \(requirement): " + checks.map { "`\($0.id)`" }.joined(separator: ", "))
            }
            lines.append("")
        }
        let waived = results.filter { if case .waived = $0.outcome { true } else { false } }
        if !waived.isEmpty || !unknownWaivers.isEmpty {
            lines += ["## Waivers", ""] + waived.map { "- `\($0.check.id)`: \(Self.escaped("\($0.outcome)"))" }
            lines += unknownWaivers.map { "- `\($0)`: names no check" } + [""]
        }
        lines += ["## Checks", "", "| check | category | outcome |", "| --- | --- | --- |"]
        lines += results.map {
            "| `\($0.check.id)` | \($0.check.category.title) | \(Self.escaped("\($0.outcome)")) |"
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How many checks ended each way, by outcome name.
    var counts: [String: Int] {
        results.reduce(into: [:]) { counts, result in counts[Self.kind(of: result.outcome), default: 0] += 1 }
    }

    private static func kind(of outcome: CheckOutcome) -> String {
        switch outcome {
        case .passed: "passed"
        case .failed: "failed"
        case .skipped: "skipped"
        case .waived: "waived"
        }
    }

    /// `text` on one line, safe inside a Markdown table cell.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    private struct JSONReport: Encodable {
        struct Check: Encodable {
            let id: String
            let category: String
            let summary: String
            let outcome: String
            let detail: String?

            init(_ result: CheckResult) {
                id = result.check.id
                category = result.check.category.title
                summary = result.check.summary
                outcome = ConformanceReport.kind(of: result.outcome)
                detail =
                    switch result.outcome {
                    case .passed: nil
                    case .failed(let message): message
                    case .skipped(let requirement): "requires \(requirement)"
                    case .waived(let reason, let wouldPass): "\(reason) (\(wouldPass ? "passes anyway" : "fails"))"
                    }
            }
        }

        /// A check the suite skipped, and the requirement it lacks.
        struct Skip: Encodable {
            let id: String
            let reason: String

            init?(_ result: CheckResult) {
                guard case .skipped(let requirement) = result.outcome else { return nil }
                id = result.check.id
                reason = "requires \(requirement)"
            }
        }

        let suiteVersion: String
        let storeType: String
        let declaredCapabilities: [String]
        let seed: String
        let succeeded: Bool
        let counts: [String: Int]
        let unknownWaivers: [String]
        let skipped: [Skip]
        let checks: [Check]
    }
}
