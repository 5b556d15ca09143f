import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

@Suite struct StoreTypeIdentificationTests {
    @Test(arguments: ["SQLite", "LMDB", "XML", "Binary"])
    func detectsEachBuiltInStoreFromItsContent(type: String) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("store.data")
        try ContainerModel.writeStore(type: type, at: url)
        #expect(try StoreType.builtInFileType(ofFileAt: url).name == type)
    }

    @Test func detectsAnXMLStoreAfterItsPrologue() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("store.xml")
        let text = "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<!DOCTYPE database>\n<database></database>"
        try Data(text.utf8).write(to: url)
        #expect(try StoreType.builtInFileType(ofFileAt: url).name == "XML")
    }

    @Test func rejectsOtherFilesNamingTheirFirstBytes() throws {
        let directory = try TemporaryDirectory()
        let text = directory.file("notes.txt")
        try Data("hello".utf8).write(to: text)
        let error = try #require(throws: StoreError.self) { try StoreType.builtInFileType(ofFileAt: text).name }
        #expect(error.code == .unknownStoreType)
        #expect(error.message.contains("notes.txt") && error.message.contains("68 65 6c 6c 6f"))

        let otherXML = directory.file("other.xml")
        try Data("<?xml version=\"1.0\"?><plist></plist>".utf8).write(to: otherXML)
        #expect(throws: StoreError.self) { try StoreType.builtInFileType(ofFileAt: otherXML).name }

        let empty = directory.file("empty")
        try Data().write(to: empty)
        let emptyError = try #require(throws: StoreError.self) { try StoreType.builtInFileType(ofFileAt: empty).name }
        #expect(emptyError.message.contains("empty"))
    }

    @Test func missingFilesAndDirectoriesAreIOErrors() throws {
        let directory = try TemporaryDirectory()
        let missing = try #require(throws: StoreError.self) {
            try StoreType.builtInFileType(ofFileAt: directory.file("absent")).name
        }
        #expect(missing.code == .io && missing.message.contains("absent"))
        let folder = try #require(throws: StoreError.self) {
            try StoreType.builtInFileType(ofFileAt: directory.url).name
        }
        #expect(folder.code == .io)
    }

    @Test func aCoordinatorTellsARegisteredThirdPartyTypeByItsOwnHeaderCheck() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.csv")
        try Data("CSV1\nid,text\n".utf8).write(to: url)
        let csv = StoreType(
            name: "CSV", open: { _ in throw StoreError(code: .unsupported, message: "not opened here") },
            readMetadata: { _ in nil }, writeMetadata: { _, _ in }, destroy: { _ in },
            recognize: { $0.starts(with: Array("CSV1\n".utf8)) })
        let coordinator = try PersistentStoreCoordinator(
            model: ContainerModel.make(), storeTypes: StoreType.builtInFileTypes)
        #expect(throws: StoreError.self) { try coordinator.storeType(ofFileAt: url) }
        coordinator.register(csv)
        #expect(try coordinator.storeType(ofFileAt: url).name == "CSV")
        let sqlite = directory.file("store.sqlite")
        try ContainerModel.writeStore(type: "SQLite", at: sqlite)
        #expect(try coordinator.storeType(ofFileAt: sqlite) == .sqlite)
    }

    @Test func typesCompareByNameAndTheOptionsTheyWereMadeWith() {
        #expect(StoreType.sqlite(SQLiteStoreOptions(poolSize: 2)) == .sqlite(SQLiteStoreOptions(poolSize: 2)))
        #expect(StoreType.sqlite(SQLiteStoreOptions(poolSize: 2)) != .sqlite(SQLiteStoreOptions(poolSize: 3)))
        #expect(StoreType.sqlite == .sqlite(SQLiteStoreOptions()))
        #expect(StoreType.sqlite != .sqlite(SQLiteStoreOptions(poolSize: 2)))
        #expect(StoreType.lmdb(LMDBStoreOptions(mapSize: 1 << 20)) != .sqlite)
        #expect(
            PersistentStoreDescription.sqlite(at: URL(fileURLWithPath: "/a.sqlite"))
                == .sqlite(at: URL(fileURLWithPath: "/a.sqlite")))
    }

    @Test func eachBuiltInTypeDescribesItsFormat() throws {
        let directory = try TemporaryDirectory()
        for (type, expected) in [
            (StoreType.sqlite, "Z_METADATA version 1"), (.lmdb, "LMDB layout version"), (.xml, "XML store version"),
            (.binary, "binary store version"),
        ] {
            let url = directory.file("store." + type.name)
            try ContainerModel.writeStore(type: type.name, at: url)
            #expect(try type.formatDescription(ofFileAt: url)?.contains(expected) == true, "\(type.name)")
        }
        #expect(try StoreType.inMemory.formatDescription(ofFileAt: directory.file("none")) == nil)
    }
}
