import CStrataLMDB
import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataLMDB

/// Counters and versions an LMDB file holds at their limits are `corrupt`, never an arithmetic
/// trap in the process reading them.
@Suite struct LMDBDataLimitsTests {
    typealias Stack = LMDBExternalDataTests.Stack

    @Test func anObjectCounterAtItsLimitIsCorrupt() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.save("first", image: nil)
        let store = try #require(stack.coordinator.stores.first as? LMDBStore)
        try store.environment.write { transaction in
            try transaction.put(store.databases.counters, Array("Scan".utf8), LMDBLayout.key(.max))
        }
        #expect {
            try stack.save("second", image: nil)
        } throws: { HostileFileNames.isCorrupt($0, naming: "object counter") }
    }

    @Test func aVersionAtItsLimitIsCorrupt() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.save("first", image: nil)
        try LMDBExternalDataNameTests.rewriteRecords(of: stack) {
            Snapshot(objectID: $0.objectID, values: $0.values, version: .max)
        }
        let fresh = try Stack(stack.folder)
        #expect {
            try fresh.save("first", image: LMDBExternalDataTests.large)
        } throws: { HostileFileNames.isCorrupt($0, naming: "version \(Int64.max)") }
    }
}
