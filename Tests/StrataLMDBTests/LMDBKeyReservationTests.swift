import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataLMDB

/// Small saves hand out object numbers from blocks reserved in the counters database
/// (``KeyReservations``) rather than writing the counter before each save; a number reserved
/// and never used is never handed out after reopening, nor one a save inserted from outside.
@Suite struct LMDBKeyReservationTests {
    typealias Stack = LMDBExternalDataTests.Stack

    static func store(of stack: Stack) throws -> LMDBStore {
        try #require(stack.coordinator.stores.first as? LMDBStore)
    }

    /// The number the counter of `Scan` will hand out next, as the file holds it.
    static func counter(of stack: Stack) throws -> Int64? {
        let store = try store(of: stack)
        return try store.environment.read { transaction in
            try transaction.get(store.databases.counters, Array("Scan".utf8)).map(LMDBLayout.primaryKey)
        }
    }

    static func numbers(_ ids: [ObjectID]) -> [Int64] {
        ids.compactMap { if case .integer(let number) = $0.reference { number } else { nil } }
    }

    @Test func smallSavesWriteTheCounterOnlyWhenABlockRunsOut() throws {
        let stack = try Stack(TemporaryDirectory())
        var counters: Set<Int64> = []
        for index in 0..<20 {
            try stack.save("scan \(index)", image: nil)
            counters.insert(try #require(try Self.counter(of: stack)))
        }
        #expect(counters == [2, 4, 8, 16, 32], "blocks of 1, 2, 4, 8 and 16 numbers")
        let saved = try stack.context.performAndWait {
            try stack.context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Scan"))
        }
        #expect(Set(Self.numbers(saved)) == Set(1...20))
    }

    @Test func numbersReservedAndNotHandedOutAreNeverHandedOutAfterReopening() throws {
        let folder = try TemporaryDirectory()
        var stack = try Stack(folder)
        for index in 0..<4 { try stack.save("scan \(index)", image: nil) }
        #expect(try Self.counter(of: stack) == 8, "numbers 5 to 7 are reserved and not handed out")
        try stack.coordinator.remove(try Self.store(of: stack))
        stack = try Stack(folder)
        #expect(Self.numbers(try Self.store(of: stack).permanentIDs(forEntities: ["Scan"])) == [8])
    }

    @Test func aNumberInsertedFromOutsideAmongTheReservedOnesIsNotHandedOut() throws {
        let stack = try Stack(TemporaryDirectory())
        for index in 0..<4 { try stack.save("scan \(index)", image: nil) }
        let store = try Self.store(of: stack)
        let outsider = ObjectID(storeIdentifier: store.identifier, entityName: "Scan", reference: .integer(5))
        try store.save(
            StoreChangeSet(inserted: [
                .init(objectID: outsider, values: ["name": .string("from a log")], expectedVersion: 0)
            ]))
        #expect(Self.numbers(try store.permanentIDs(forEntities: ["Scan", "Scan"])) == [6, 7])
    }
}
