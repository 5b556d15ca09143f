import StrataConformance

/// One store type's conformance results, as `strata conformance --json` prints them.
struct ConformanceSummary: Encodable {
    /// A failed check.
    struct Failure: Encodable {
        var check: String
        var message: String
    }

    var type: String
    /// The run's seed, as text: JSON numbers lose digits above 2^53.
    var seed: String
    var passed = 0
    var failed = 0
    var skipped = 0
    var waived = 0
    var capabilities: [String]
    var failures: [Failure] = []

    /// The summary of `report`.
    init(_ report: ConformanceReport) {
        type = report.storeType
        seed = String(report.seed)
        capabilities = report.declaredCapabilities.names
        for result in report.results {
            switch result.outcome {
            case .passed: passed += 1
            case .failed(let message):
                failed += 1
                failures.append(Failure(check: result.check.id, message: message))
            case .skipped: skipped += 1
            case .waived: waived += 1
            }
        }
    }
}

/// The document `strata conformance --json` prints.
struct ConformanceDocument: Encodable {
    var suiteVersion = ConformanceSuite.version
    var stores: [ConformanceSummary]
}
