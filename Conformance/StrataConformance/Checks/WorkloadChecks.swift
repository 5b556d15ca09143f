import Foundation
import Strata

/// R: seeded random workloads give the same results in the store and the oracle, while they
/// run (pending changes included) and after reopening.
enum WorkloadChecks {
    static var all: [ConformanceCheck] { [recordsMixed, recordsPaged, graphMixed] }

    private static let category = ConformanceCategory.workloads

    static let recordsMixed = category.check(
        "records.mixed",
        "200 random inserts, updates, deletes and saves of Samples, with random fetches compared with the oracle."
    ) { harness in
        try runWorkload(harness, .records, fetches: .mixed)
    }

    static let recordsPaged = category.check(
        "records.paged", "A random Sample workload whose fetches are all sorted, offset and limited."
    ) { harness in
        try runWorkload(harness, .records, fetches: .paged)
    }

    static let graphMixed = category.check(
        "graph.mixed",
        "200 random changes of People and Teams (names, ages, teams, managers, friends, deletions) compared with the oracle."
    ) { harness in
        try runWorkload(harness, .graph, fetches: .mixed)
    }

    private static let operations = 200

    /// Runs a workload on `dataSet`, then reopens both stores and compares every object.
    private static func runWorkload(
        _ harness: CheckHarness, _ dataSet: CanonicalDataSet, fetches: RandomWorkload.Fetches
    ) throws {
        var log: [String] = []
        do {
            try harness.withCanonicalData(dataSet) { comparison in
                let workload = try RandomWorkload(
                    dataSet, fetches: fetches, random: harness.random, comparison: comparison)
                defer { log = workload.log }
                try workload.run(operations)
            }
            log.append("reopen both stores")
            try harness.withStore(configuration: dataSet.configuration) { subject in
                try harness.withOracle { oracle in
                    for entity in RandomWorkload.entities(of: dataSet) {
                        try expectSameObjects(entity, subject: subject, oracle: oracle)
                    }
                }
            }
        } catch let failure as CheckFailure {
            throw CheckFailure(
                "\(failure) Workload seed \(harness.seed), after \(log.count) steps; the last ones: "
                    + log.suffix(8).joined(separator: "; ") + ".")
        }
    }

    /// Fails unless every object of `entity` has the same values and related serials in both stores.
    private static func expectSameObjects(_ entity: String, subject: CheckStack, oracle: CheckStack) throws {
        let comparison = OracleComparison(subject: subject, oracle: oracle)
        try comparison.expectSameResults(OracleQuery(entity, sortedBy: [FetchSortDescriptor("serial")]))
        let subjectObjects = try subject.objects(entity, sortedBy: [FetchSortDescriptor("serial")])
        let oracleObjects = try oracle.objects(entity, sortedBy: [FetchSortDescriptor("serial")])
        for (actual, expected) in zip(subjectObjects, oracleObjects) {
            let serial = try OracleComparison.serial(try oracle.value(expected, "serial"))
            for key in try keys(of: entity) {
                let actualValue = try described(actual, key, subject)
                let expectedValue = try described(expected, key, oracle)
                try expect(
                    actualValue == expectedValue,
                    "\(entity) \(serial).\(key) after reopening: expected \(expectedValue), got \(actualValue).")
            }
        }
    }

    private static func keys(of entity: String) throws -> [String] {
        let description = try require(
            ConformanceModel.model.entity(named: entity), "The model has no entity '\(entity)'.")
        let relationships = Set(description.relationships.map(\.name))
        return description.attributes.map(\.name).sorted()
            + ["team", "manager", "friends", "members"].filter(relationships.contains)
    }

    /// The value of `key` of `object`, with related objects as their serials.
    private static func described(_ object: ManagedObject, _ key: String, _ stack: CheckStack) throws -> String {
        try stack.run {
            switch key {
            case "team", "manager":
                return try object.object(forKey: key).map { try "\($0.value(forKey: "serial"))" } ?? "nil"
            case "friends":
                return
                    "\(try object.objects(forKey: key).map { try OracleComparison.serial($0.value(forKey: "serial")) }.sorted())"
            case "members":
                return
                    "\(try object.objects(forKey: key).map { try OracleComparison.serial($0.value(forKey: "serial")) })"
            default:
                return try object.value(forKey: key).exactDescription
            }
        }
    }
}
