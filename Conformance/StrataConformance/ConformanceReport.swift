import Foundation
import Strata

/// The result of a whole run: what was tested, and how each check ended.
public struct ConformanceReport: Sendable {
    /// The suite's version.
    public let suiteVersion = ConformanceSuite.version
    /// The store type's name.
    public let storeType: String
    /// The capabilities the store declares.
    public let declaredCapabilities: StoreCapabilities
    /// The seed the run used.
    public let seed: UInt64
    /// Every check's result, in category order.
    public let results: [CheckResult]
    /// Waivers that name no check.
    public let unknownWaivers: [String]

    init(suite: ConformanceSuite, declaredCapabilities: StoreCapabilities, results: [CheckResult]) {
        storeType = suite.storeType.name
        self.declaredCapabilities = declaredCapabilities
        seed = suite.seed
        self.results = results
        unknownWaivers = suite.unknownWaivers
    }

    /// Whether every check passed, was skipped or was waived, and every waiver names a check.
    public var succeeded: Bool { results.allSatisfy(\.outcome.isAcceptable) && unknownWaivers.isEmpty }

    /// The failed checks.
    public var failures: [CheckResult] { results.filter { !$0.outcome.isAcceptable } }

    /// The skipped checks, grouped by the requirement the store lacks.
    public var skipsByRequirement: [ConformanceRequirement: [ConformanceCheck]] {
        results.reduce(into: [:]) { groups, result in
            if case .skipped(let requirement) = result.outcome { groups[requirement, default: []].append(result.check) }
        }
    }

    /// Writes `conformance-<type>.json` and `conformance-<type>.md` into `folder`, creating
    /// it if needed, and returns the two files.
    @discardableResult
    public func write(to folder: URL) throws -> (json: URL, markdown: URL) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let base = folder.appendingPathComponent("conformance-\(storeType)")
        let json = base.appendingPathExtension("json")
        let markdown = base.appendingPathExtension("md")
        try jsonData().write(to: json, options: .atomic)
        try Data(self.markdown().utf8).write(to: markdown, options: .atomic)
        return (json, markdown)
    }
}
