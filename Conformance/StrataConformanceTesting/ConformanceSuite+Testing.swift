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
}
