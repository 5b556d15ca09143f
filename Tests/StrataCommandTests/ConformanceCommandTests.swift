import Foundation
import Testing

@Suite struct ConformanceCommandTests {
    @Test func printsTheResultsOfAStoreTypeAsJSON() throws {
        let outcome = try StrataProcess.run(["conformance", "Binary", "--json"])
        #expect(outcome.status == 0, "\(outcome.output)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(document["suiteVersion"] is String)
        let stores = try #require(document["stores"] as? [[String: Any]])
        #expect(stores.count == 1)
        #expect(stores.first?["type"] as? String == "Binary")
        #expect(stores.first?["failed"] as? Int == 0)
        #expect((stores.first?["failures"] as? [Any])?.isEmpty == true)
        #expect((stores.first?["passed"] as? Int ?? 0) > 0)
        #expect(stores.first?["capabilities"] is [String])
    }

    @Test func refusesAnUnknownStoreType() throws {
        let outcome = try StrataProcess.run(["conformance", "Paper"])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("Unknown store type 'Paper'"))
    }

    /// The counts `strata conformance … --json` prints for its one store type.
    private func counts(_ arguments: [String]) throws -> [String: Int] {
        let outcome = try StrataProcess.run(["conformance"] + arguments + ["--json"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let store = try #require((document["stores"] as? [[String: Any]])?.first)
        return ["passed", "failed", "skipped", "waived"].reduce(into: [:]) { $0[$1] = store[$1] as? Int }
    }

    @Test func runsOnlyTheNamedChecksAgainstTheInMemoryStore() throws {
        let counts = try counts([
            "InMemory", "--check", "I.valuesBySlotSaveAsByName", "--check", "N.newerFormatVersion",
        ])
        #expect(counts == ["passed": 1, "failed": 0, "skipped": 1, "waived": 0])
    }

    @Test func runsOnlyTheChecksOfACategoryNamedByLetterOrName() throws {
        let byLetter = try counts(["InMemory", "--category", "F"])
        #expect(try counts(["InMemory", "--category", "predicates"]) == byLetter)
        #expect((byLetter["passed"] ?? 0) > 1 && byLetter["failed"] == 0)
        let both = try counts(["InMemory", "--category", "F", "--check", "I.valuesBySlotSaveAsByName"])
        #expect(both["passed"] == (byLetter["passed"] ?? 0) + 1)
    }

    @Test func runsWithTheSeedGivenAndReportsIt() throws {
        let outcome = try StrataProcess.run([
            "conformance", "InMemory", "--check", "R.records.mixed", "--seed", "18446744073709551557", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let store = try #require((document["stores"] as? [[String: Any]])?.first)
        #expect(store["seed"] as? String == "18446744073709551557")
        let table = try StrataProcess.run(["conformance", "InMemory", "--check", "R.records.mixed"])
        #expect(table.output.contains(", seed "), "\(table.output)")
    }

    @Test func refusesAnUnknownCheckOrCategory() throws {
        let check = try StrataProcess.run(["conformance", "InMemory", "--check", "Z.nothing"])
        #expect(check.status == 1 && check.error.contains("Unknown check 'Z.nothing'"))
        let category = try StrataProcess.run(["conformance", "InMemory", "--category", "colours"])
        #expect(category.status == 1 && category.error.contains("Unknown check category 'colours'"))
    }
}
