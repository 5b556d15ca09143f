import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Small saves hand out primary keys from blocks reserved in `Z_PRIMARYKEY` (``KeyReservations``)
/// rather than writing the counter before each save: keys stay unique across openings of one
/// file, and a key reserved and never used is never handed out after reopening.
@Suite struct SQLiteKeyReservationTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("keys.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    func open() throws -> (PersistentStoreCoordinator, SQLiteStore) {
        try SQLitePushDownFixture.coordinator(with: url)
    }

    /// Saves a tag under each of `ids`.
    func insertTags(_ ids: [ObjectID], into store: SQLiteStore) throws {
        try store.save(
            StoreChangeSet(
                inserted: ids.map { .init(objectID: $0, values: ["label": .string("\($0)")], expectedVersion: 0) }))
    }

    func maximum(_ entity: String) throws -> Int64 {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let rows = try connection.statement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?").rows([.text(entity)]) {
            $0.value(at: 0)
        }
        guard case .integer(let maximum)? = rows.first else { throw StoreError(code: .corrupt, message: "no Z_MAX") }
        return maximum
    }

    static func keys(_ ids: [ObjectID]) -> [Int64] {
        ids.compactMap { if case .integer(let key) = $0.reference { key } else { nil } }
    }

    @Test func aStoreHandingOutKeysOnceReservesExactlyThose() throws {
        let (_, store) = try open()
        let ids = try store.permanentIDs(forEntities: ["Tag", "Tag", "Tag"])
        #expect(Self.keys(ids) == [1, 2, 3])
        #expect(try maximum("Tag") == 3)
    }

    @Test func smallSavesWriteTheCounterOnlyWhenABlockRunsOut() throws {
        let (_, store) = try open()
        var handedOut: [Int64] = []
        var maxima: [Int64] = []
        for _ in 0..<20 {
            let ids = try store.permanentIDs(forEntities: ["Tag"])
            try insertTags(ids, into: store)
            handedOut += Self.keys(ids)
            maxima.append(try maximum("Tag"))
        }
        #expect(handedOut == Array(1...20))
        #expect(Set(maxima) == [1, 3, 7, 15, 31], "blocks of 1, 2, 4, 8 and 16 keys")
        #expect(maxima.enumerated().allSatisfy { $0.element >= handedOut[$0.offset] })
    }

    @Test func twoOpeningsOfOneFileNeverHandOutTheSameKey() throws {
        let (_, first) = try open()
        let (_, second) = try open()
        var handedOut: [ObjectID] = []
        for round in 0..<30 {
            for store in round % 3 == 0 ? [second, first] : [first, second] {
                let ids = try store.permanentIDs(forEntities: Array(repeating: "Tag", count: round % 4 + 1))
                try insertTags(ids, into: store)
                handedOut += ids
            }
        }
        #expect(Set(handedOut).count == handedOut.count)
        let saved = try first.execute(StoreFetchRequest(entityName: "Tag", resultType: .objectIDs))
        #expect(Set(saved.objectIDsInOrder) == Set(handedOut))
        #expect(try maximum("Tag") >= Self.keys(handedOut).max() ?? 0)
    }

    @Test func keysReservedAndNotHandedOutAreNeverHandedOutAfterReopening() throws {
        var (coordinator, store) = try open()
        for _ in 0..<4 { try insertTags(try store.permanentIDs(forEntities: ["Tag"]), into: store) }
        let reservedUpTo = try maximum("Tag")
        #expect(reservedUpTo == 7, "keys 5 to 7 are reserved and not handed out")
        try coordinator.remove(store)
        (coordinator, store) = try open()
        #expect(Self.keys(try store.permanentIDs(forEntities: ["Tag"])) == [reservedUpTo + 1])
    }

    @Test func aKeyInsertedFromOutsideAmongTheReservedOnesIsNotHandedOut() throws {
        let (_, store) = try open()
        for _ in 0..<4 { try insertTags(try store.permanentIDs(forEntities: ["Tag"]), into: store) }
        // Keys 5 to 7 are reserved and not handed out; a save log's object takes key 5.
        let outsider = ObjectID(storeIdentifier: store.identifier, entityName: "Tag", reference: .integer(5))
        try insertTags([outsider], into: store)
        #expect(Self.keys(try store.permanentIDs(forEntities: ["Tag", "Tag"])) == [6, 7])
    }
}

extension StoreFetchResult {
    fileprivate var objectIDsInOrder: [ObjectID] {
        if case .objectIDs(let ids) = self { ids } else { [] }
    }
}
