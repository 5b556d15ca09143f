import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// A table whose b-tree holds a primary key out of order hides rows from searches by primary
/// key, and SQLite does not notice it: loading the members of an owner the store cannot find
/// by its key, yet holds, gives `corrupt`, not `unknownObject` (conformance `N.byteFlips` for
/// SQLite, seed 3554, found a file reading that way).
@Suite struct SQLiteDamagedTableTests {
    let directory: TemporaryDirectory
    let url: URL
    /// The teams, by serial 1 to 6, as the damaged file's primary keys are.
    let teams: [ObjectID]

    init() async throws {
        directory = try TemporaryDirectory()
        url = directory.file("teams.sqlite")
        let (coordinator, store) = try SQLitePushDownFixture.coordinator(with: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        teams = try await context.perform {
            let teams = try (1...6).map { number in
                let team = try context.insertNewObject(forEntityName: "Team")
                try team.setValue(.string("team \(number)"), forKey: "name")
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setObject(team, forKey: "team")
                return team
            }
            try context.save()
            return teams.map(\.objectID)
        }
        try coordinator.remove(store)
        try Self.renumberRow(5, to: 120, inTableOf: "ZTEAM", at: url)
    }

    private func open() throws -> SQLiteStore {
        try SQLiteStoreFile.open(StoreOpenRequest(model: PushDownGraph.model, url: url))
    }

    @Test func theFileReallyHidesARowFromSearches() throws {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let scanned = try connection.cachedStatement("SELECT Z_PK FROM ZTEAM NOT INDEXED ORDER BY +Z_PK").rows {
            $0.value(at: 0)
        }
        #expect(scanned == [1, 2, 3, 4, 6, 120].map { .integer($0) })
        #expect(try connection.cachedStatement("SELECT Z_PK FROM ZTEAM WHERE Z_PK = 6").rows { _ in 1 }.isEmpty)
    }

    @Test func loadingTheMembersOfAHiddenRowIsCorrupt() throws {
        let store = try open()
        let hidden = teams[5]
        for load in [
            { _ = try store.relatedObjectIDs(of: hidden, relationship: "members") },
            { _ = try store.relatedObjectIDs(ofEach: [teams[0], hidden], relationship: "members") },
        ] {
            let error = #expect(throws: StoreError.self) { try load() }
            #expect(error?.code == .corrupt)
            #expect(error?.message.contains("ZTEAM") == true && error?.message.contains(url.path) == true)
        }
    }

    @Test func anObjectThatIsReallyMissingIsStillUnknown() throws {
        let store = try open()
        let missing = ObjectID(storeIdentifier: teams[0].storeIdentifier, entityName: "Team", reference: .integer(99))
        #expect(try store.snapshot(for: missing) == nil)
        let error = #expect(throws: StoreError.self) {
            _ = try store.relatedObjectIDs(of: missing, relationship: "members")
        }
        #expect(error?.code == .unknownObject)
        // A row of the key under another entity of the table is no sign of damage.
        let manager = ObjectID(storeIdentifier: teams[0].storeIdentifier, entityName: "Manager", reference: .integer(3))
        let members = #expect(throws: StoreError.self) {
            _ = try store.relatedObjectIDs(of: manager, relationship: "tags")
        }
        #expect(members?.code == .unknownObject)
    }

    /// Rewrites, in the leaf page that is the root of `table`, the primary key of the row `key`
    /// as `newKey` (both below 128, one byte each), as a flipped byte does.
    private static func renumberRow(_ key: UInt8, to newKey: UInt8, inTableOf table: String, at url: URL) throws {
        let root = try SQLiteConnection(path: url.path, mode: .readOnly)
            .cachedStatement("SELECT rootpage FROM sqlite_master WHERE name = ?").rows([.text(table)]) {
                $0.value(at: 0)
            }
        guard case .integer(let page) = root.first else { throw StoreError(code: .corrupt, message: "no \(table)") }
        var bytes = try Data(contentsOf: url)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let start = (Int(page) - 1) * pageSize
        let header = start + (page == 1 ? 100 : 0)
        #expect(bytes[header] == 0x0D, "a leaf page of a table")
        let cells = Int(bytes[header + 3]) << 8 | Int(bytes[header + 4])
        for cell in 0..<cells {
            let pointer = header + 8 + 2 * cell
            let offset = start + (Int(bytes[pointer]) << 8 | Int(bytes[pointer + 1]))
            // A cell: the payload's size, then the primary key, each a one-byte varint here.
            if bytes[offset + 1] == key {
                bytes[offset + 1] = newKey
                try bytes.write(to: url)
                return
            }
        }
        Issue.record("No row \(key) in the root page of \(table)")
    }
}
