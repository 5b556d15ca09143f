import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Files that are not stores, stores of another model, locked stores and read-only stores each
/// give a typed error naming the file, and leave the file as it was.
@Suite struct SQLiteBadInputTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func open(
        _ name: String, model: ManagedObjectModel = ContentionModel.model, options: StoreOptions = StoreOptions()
    ) throws -> SQLiteStore {
        try SQLiteStoreFile.open(StoreOpenRequest(model: model, url: directory.file(name), options: options))
    }

    /// Opening `name` throws a StoreError with `code` naming the file, and the folder is as it was.
    private func expectRefusal(_ name: String, _ code: StoreError.Code, mentioning detail: String) throws {
        let before = try folderContents()
        #expect {
            _ = try open(name)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == code && error.message.contains(directory.file(name).path)
                && error.message.contains(detail)
        }
        #expect(try folderContents() == before)
    }

    private func folderContents() throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        return try Dictionary(uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: directory.file($0))) })
    }

    @Test func aFileThatIsNotSQLiteIsCorrupt() throws {
        try Data(repeating: 0x41, count: 8192).write(to: directory.file("text.sqlite"))
        try expectRefusal("text.sqlite", .corrupt, mentioning: "not a readable SQLite database")
    }

    @Test func anSQLiteFileThatIsNotAStoreIsCorrupt() throws {
        let connection = try SQLiteConnection(path: directory.file("other.sqlite").path, mode: .readWriteCreate)
        try connection.execute(script: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello')")
        try expectRefusal("other.sqlite", .corrupt, mentioning: "no Z_METADATA")
    }

    @Test func aStoreOfAnotherModelNamesTheEntitiesThatDiffer() throws {
        _ = try open("store.sqlite")
        let changed = ManagedObjectModel {
            EntityDescription("Entry") {
                AttributeDescription("writer", .string)
                AttributeDescription("serial", .integer64)
                AttributeDescription("added", .date)
            }
        }
        try changed.freeze()
        #expect {
            _ = try open("store.sqlite", model: changed)
        } throws: { error in
            (error as? StoreError)?.code == .incompatibleModel && "\(error)".contains("Entry")
        }
    }

    @Test func aLockedStoreMakesASaveWaitThenFailWithInUse() throws {
        let store = try open("locked.sqlite", options: StoreOptions(settings: ["busyTimeout": "50"]))
        let other = try SQLiteConnection(path: directory.file("locked.sqlite").path, mode: .readWrite)
        try other.execute(script: "BEGIN EXCLUSIVE; UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX")
        #expect {
            try ContentionModel.writeEntries(1, as: "blocked", into: store)
        } throws: { error in
            (error as? StoreError)?.code == .inUse && "\(error)".contains(directory.file("locked.sqlite").path)
        }
        try other.execute(script: "ROLLBACK")
        try ContentionModel.writeEntries(1, as: "after", into: store)
        #expect(try store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count)) == .count(1))
    }

    @Test func aReadOnlyStoreRefusesSavesAndNewIDs() throws {
        try ContentionModel.writeEntries(2, as: "first", into: try open("store.sqlite"))
        let readOnly = try open("store.sqlite", options: StoreOptions(isReadOnly: true))
        #expect(try readOnly.execute(StoreFetchRequest(entityName: "Entry", resultType: .count)) == .count(2))
        #expect {
            try ContentionModel.writeEntries(1, as: "refused", into: readOnly)
        } throws: { error in
            (error as? StoreError)?.code == .readOnly && "\(error)".contains(directory.file("store.sqlite").path)
        }
    }

    @Test func aMissingFileIsNotOpenedReadOnly() throws {
        #expect {
            _ = try open("missing.sqlite", options: StoreOptions(isReadOnly: true))
        } throws: { error in
            (error as? StoreError)?.code == .io && "\(error)".contains("missing.sqlite")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing.sqlite").path))
    }

    /// A trigger a file carries is data: it cannot call the functions Strata defines for its
    /// own SQL, and a save it would run through one fails with a typed error.
    @Test(arguments: [SQLiteStrataFunctions.fold, SQLiteStrataFunctions.real])
    func aTriggerOfTheFileCannotCallStrataFunctions(_ function: String) throws {
        let path = directory.file("store.sqlite").path
        do {
            let store = try open("store.sqlite")
            store.close()
        }
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let argument = function == SQLiteStrataFunctions.fold ? "NEW.ZWRITER, 0" : "NEW.ZSERIAL"
        try connection.execute(
            script: "CREATE TRIGGER planted AFTER INSERT ON ZENTRY BEGIN SELECT \(function)(\(argument)); END")
        let store = try open("store.sqlite")
        defer { store.close() }
        let objectID = try #require(try store.permanentIDs(forEntities: ["Entry"]).first)
        let error = try #require(throws: StoreError.self) {
            try store.save(
                StoreChangeSet(inserted: [
                    .init(objectID: objectID, values: ["writer": "a", "serial": .integer64(1)], expectedVersion: 0)
                ]))
        }
        #expect(error.message.contains("unsafe use of \(function)"))
    }
}
