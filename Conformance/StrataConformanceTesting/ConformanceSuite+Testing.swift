import Foundation
import StrataConformance
import Testing

extension ConformanceSuite {
    /// Runs `check` and records a Swift Testing issue when it fails, so that a store's test
    /// file is one parameterised test:
    ///
    /// ```swift
    /// let suite = ConformanceSuite(storeType: .myStore, storage: .file(pathExtension: "db"))
    ///
    /// @Test(arguments: suite.checks)
    /// func conforms(_ check: ConformanceCheck) { suite.expectPass(check) }
    /// ```
    public func expectPass(_ check: ConformanceCheck, sourceLocation: SourceLocation = #_sourceLocation) {
        let result = run(check)
        if case .failed(let message) = result.outcome {
            Issue.record("\(check.id) (seed \(seed)): \(message)", sourceLocation: sourceLocation)
        }
    }

    /// Runs every check, writes the report into `folder` when one is given, and records one
    /// Swift Testing issue per failed check and per waiver that names no check.
    @discardableResult
    public func expectConformance(
        writingReportTo folder: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ConformanceReport {
        let report = run()
        if let folder { try report.write(to: folder) }
        for failure in report.failures {
            Issue.record("\(failure.check.id) (seed \(seed)): \(failure.outcome)", sourceLocation: sourceLocation)
        }
        for waiver in report.unknownWaivers {
            Issue.record("The waiver '\(waiver)' names no check.", sourceLocation: sourceLocation)
        }
        return report
    }

    /// Records one Swift Testing issue per check the suite skips that `expected` does not list,
    /// and per listed check it runs: a store's test pins the checks it skips, so that a lost
    /// capability (or a store that declares fewer) fails loudly instead of passing by skipping.
    public func expectSkips(_ expected: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) {
        let skipped = Dictionary(uniqueKeysWithValues: skippedChecks.map { ($0.check.id, $0.requirement) })
        for (id, requirement) in skipped.sorted(by: { $0.key < $1.key }) where !expected.contains(id) {
            Issue.record("\(id) is skipped (requires \(requirement)) but not listed.", sourceLocation: sourceLocation)
        }
        for id in expected.subtracting(skipped.keys).sorted() {
            Issue.record("\(id) is listed as skipped but runs.", sourceLocation: sourceLocation)
        }
    }
}
