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
}
