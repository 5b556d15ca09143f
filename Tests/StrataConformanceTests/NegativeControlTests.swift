import Foundation
import Strata
import StrataConformance
import Testing

/// Each deliberately broken store fails exactly the checks aimed at its defect, and the
/// in-memory store passes everything.
@Suite struct NegativeControlTests {
    /// The checks each defect must fail.
    static let expectedFailures: [BrokenStore.Defect: Set<String>] = [
        .dropsSubSecondDates: ["C.date.before1970", "C.date.subMicrosecond", "C.date.negativeFraction"],
        .dropsNegativeZero: ["C.double.negativeZero", "C.float.negativeZero"],
        .normalizesStrings: ["C.string.nfd"],
        .reusesDeletedReferences: ["B.deletedReferencesAreNotReused"],
    ]

    @Test(arguments: BrokenStore.Defect.allCases)
    func theSuiteCatchesTheDefect(_ defect: BrokenStore.Defect) throws {
        let suite = ConformanceSuite(storeType: BrokenStore.type(defect), storage: .memory, seed: 1)
        let report = suite.run()
        let failed = Set(report.failures.map(\.check.id))
        #expect(failed == Self.expectedFailures[defect], "\(defect) failed \(failed.sorted())")
        #expect(!report.succeeded)
    }

    @Test func theInMemoryStorePassesEveryCheckAndTheReportSaysSo() throws {
        let suite = ConformanceSuite(storeType: .inMemory, storage: .memory, waivers: ["C.no.such.check": "typo"])
        let report = suite.run()
        #expect(report.failures.isEmpty)
        #expect(report.unknownWaivers == ["C.no.such.check"])
        #expect(!report.succeeded)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StrataReport-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try report.write(to: folder)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: files.json)) as? [String: Any]
        #expect(json?["storeType"] as? String == "InMemory")
        #expect((json?["checks"] as? [Any])?.count == suite.checks.count)
        let markdown = try String(contentsOf: files.markdown, encoding: .utf8)
        #expect(markdown.contains("# Conformance of InMemory"))
        #expect(markdown.contains("`C.no.such.check`: names no check"))
    }

    @Test func aWaivedFailureIsListedAndDoesNotFailTheRun() {
        let suite = ConformanceSuite(
            storeType: BrokenStore.type(.normalizesStrings), storage: .memory,
            waivers: ["C.string.nfd": "Strings are stored normalized by design."])
        let report = suite.run()
        #expect(report.succeeded)
        let waived = report.results.first { $0.check.id == "C.string.nfd" }?.outcome
        #expect(waived == .waived(reason: "Strings are stored normalized by design.", wouldPass: false))
    }

    @Test func everyCheckHasAUniqueIdentifierNamedAfterItsCategory() {
        let checks = ConformanceSuite(storeType: .inMemory, storage: .memory).checks
        #expect(Set(checks.map(\.id)).count == checks.count)
        #expect(checks.allSatisfy { $0.id.hasPrefix("\($0.category.rawValue).") })
    }
}
