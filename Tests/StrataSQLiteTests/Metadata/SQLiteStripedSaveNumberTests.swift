import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// A save across stores records its number in `Z_STRATASTRIPEDSAVE`, one row, and leaves the
/// metadata property list as it was; the number reads back as the user key
/// `StrataStripedSave`, open or closed.
@Suite struct SQLiteStripedSaveNumberTests {
    static let model: ManagedObjectModel = {
        ManagedObjectModel {
            EntityDescription("Book") { AttributeDescription("title", .string) }
            EntityDescription("Note") { AttributeDescription("text", .string) }
            ConfigurationDescription("Shelf", entities: ["Book"])
            ConfigurationDescription("Pad", entities: ["Note"])
        }
    }()

    /// An SQLite shelf and a JSON pad in `folder`, with a context.
    static func stack(_ folder: TemporaryDirectory) throws -> (
        PersistentStoreCoordinator, ManagedObjectContext, any IncrementalStore
    ) {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite, .jsonFile()])
        let shelf = try coordinator.addStore(
            type: StoreType.sqlite.name, configuration: "Shelf", at: folder.file("shelf.sqlite"))
        try coordinator.addStore(type: StoreType.jsonFile().name, configuration: "Pad", at: folder.file("pad.json"))
        return (coordinator, ManagedObjectContext(coordinator: coordinator), shelf)
    }

    static func saveAcross(_ context: ManagedObjectContext, _ title: String) throws {
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Book").setValue(.string(title), forKey: "title")
            try context.insertNewObject(forEntityName: "Note").setValue(.string(title), forKey: "text")
            try context.save()
        }
    }

    /// The property list and the striped save rows of the SQLite file in `folder`.
    static func stored(_ folder: TemporaryDirectory) throws -> (plist: SQLiteValue?, numbers: [SQLiteValue]) {
        let connection = try SQLiteConnection(path: folder.file("shelf.sqlite").path, mode: .readOnly)
        let plist = try connection.statement("SELECT Z_PLIST FROM Z_METADATA").rows { $0.value(at: 0) }.first
        let numbers = try connection.statement("SELECT Z_NUMBER FROM Z_STRATASTRIPEDSAVE").rows { $0.value(at: 0) }
        return (plist, numbers)
    }

    @Test func aSaveAcrossStoresWritesItsNumberBesideTheUntouchedPropertyList() throws {
        let folder = try TemporaryDirectory()
        do {
            let (_, context, shelf) = try Self.stack(folder)
            try Self.saveAcross(context, "Dune")
            let first = try Self.stored(folder)
            #expect(first.numbers == [.integer(1)])
            try Self.saveAcross(context, "Emma")
            let second = try Self.stored(folder)
            #expect(second.numbers == [.integer(2)])
            #expect(second.plist == first.plist, "the second save across stores rewrote the property list")
            #expect(shelf.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(2))
        }
        let reader = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        let closed = try reader.metadataForStore(type: StoreType.sqlite.name, at: folder.file("shelf.sqlite"))
        #expect(closed?.userInfo[PersistentStoreCoordinator.stripedSaveKey] == AttributeValue.integer64(2))
        let (_, _, shelf) = try Self.stack(folder)
        #expect(shelf.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(2))
    }

    @Test func userKeysSavedWithTheNumberGoToThePropertyListWithoutIt() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, context, shelf) = try Self.stack(folder)
        try Self.saveAcross(context, "Dune")
        try coordinator.save(StoreChangeSet(userInfo: ["owner": "Ada"]), to: shelf)
        let plist = try #require(Self.stored(folder).plist)
        guard case .blob(let bytes) = plist else {
            Issue.record("Z_PLIST is not a blob: \(plist)")
            return
        }
        let listed = try SQLiteMetadataPlist.decode(Data(bytes), uuid: shelf.identifier, file: "shelf.sqlite")
        #expect(listed.userInfo == ["owner": "Ada"])
        #expect(
            shelf.metadata.userInfo == ["owner": "Ada", PersistentStoreCoordinator.stripedSaveKey: .integer64(1)])
        #expect(try Self.stored(folder).numbers == [.integer(1)])
    }

    @Test func metadataWrittenWithoutTheNumberDropsIt() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("shelf.sqlite")
        do {
            let (_, context, _) = try Self.stack(folder)
            try Self.saveAcross(context, "Dune")
        }
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        var metadata = try #require(try coordinator.metadataForStore(type: StoreType.sqlite.name, at: url))
        metadata.userInfo = ["owner": "Bo"]
        try coordinator.setMetadata(metadata, forStoreOfType: StoreType.sqlite.name, at: url)
        #expect(try Self.stored(folder).numbers.isEmpty)
        #expect(try coordinator.metadataForStore(type: StoreType.sqlite.name, at: url)?.userInfo == ["owner": "Bo"])
    }

    @Test func aNumberThatIsNotWholeIsCorruptNamingTheFile() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("shelf.sqlite")
        do {
            let (_, context, _) = try Self.stack(folder)
            try Self.saveAcross(context, "Dune")
        }
        let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        try connection.execute(script: "UPDATE Z_STRATASTRIPEDSAVE SET Z_NUMBER = 'seven'")
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        let error = try #require(throws: StoreError.self) {
            try coordinator.metadataForStore(type: StoreType.sqlite.name, at: url)
        }
        #expect(error.code == .corrupt)
        #expect(error.message.contains(url.path) && error.message.contains("Z_STRATASTRIPEDSAVE"))
    }
}
