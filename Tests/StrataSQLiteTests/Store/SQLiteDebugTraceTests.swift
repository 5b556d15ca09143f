import Foundation
import StrataTestSupport
import Testing

/// `STRATA_SQL_DEBUG` logs statements (1), their values and timings (2) and fetch plans (4).
@Suite struct SQLiteDebugTraceTests {
    /// The standard error of the contention worker writing one entry with `STRATA_SQL_DEBUG=level`.
    private func tracedOutput(level: String) throws -> String {
        let directory = try TemporaryDirectory()
        let run = try BuiltProducts.standardError(
            of: "SQLiteContentionWorker", [directory.file("traced.sqlite").path, "tracer", "1"],
            environment: ["STRATA_SQL_DEBUG": level])
        #expect(run.status == 0, "\(run.output)")
        return run.output
    }

    @Test func levelOneLogsStatements() throws {
        let output = try tracedOutput(level: "1")
        #expect(output.contains("SQL INSERT INTO ZENTRY"))
        #expect(!output.contains(" ms]") && !output.contains("PLAN"))
    }

    @Test func levelTwoAddsValuesAndTimings() throws {
        let output = try tracedOutput(level: "2")
        #expect(output.contains("'tracer'") && output.contains(" ms]"))
        #expect(!output.contains("PLAN"))
    }

    @Test func levelFourAddsQueryPlans() throws {
        let output = try tracedOutput(level: "4")
        #expect(output.contains("PLAN SELECT") && output.contains("SCAN"))
    }

    @Test func noLevelLogsNothing() throws {
        #expect(try tracedOutput(level: "0").isEmpty)
    }
}
