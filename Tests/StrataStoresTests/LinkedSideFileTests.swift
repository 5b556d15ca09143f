import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// A symbolic link where a store keeps a file of its own (SQLite's `-wal`, `-shm` and
/// `-journal`, LMDB's `-lock`, a whole-file store's `.lock`, the save log) would make the
/// libraries write, truncate or remove the file it points to: the store refuses it with
/// `corrupt` before opening anything, and the file it points to is untouched.
@Suite struct LinkedSideFileTests {
    static let model = ManagedObjectModel {
        EntityDescription("Item") { AttributeDescription("name", .string) }
    }

    @Test(arguments: [
        ("SQLite", "store.sqlite", "-wal"), ("SQLite", "store.sqlite", "-shm"), ("SQLite", "store.sqlite", "-journal"),
        ("LMDB", "store.lmdb", "-lock"), ("XML", "store.xml", ".lock"), ("Binary", "store.binary", ".lock"),
    ])
    func aLinkedSideFileIsCorruptAndItsTargetUntouched(type: String, file: String, suffix: String) throws {
        let folder = try TemporaryDirectory()
        let url = folder.file(file)
        do {
            let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: StoreType.builtInFileTypes)
            let store = try coordinator.addStore(type: type, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.performAndWait {
                try context.insertNewObject(forEntityName: "Item").setValue("kept", forKey: "name")
                try context.save()
            }
            try coordinator.remove(store)
        }
        let victim = folder.file("victim")
        let precious = Data("keep me, whole".utf8)
        try precious.write(to: victim)
        let side = URL(fileURLWithPath: url.path + suffix)
        try? FileManager.default.removeItem(at: side)
        try FileManager.default.createSymbolicLink(at: side, withDestinationURL: victim)
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: StoreType.builtInFileTypes)
        let error = try #require(throws: StoreError.self) { try coordinator.addStore(type: type, at: url) }
        #expect(error.code == .corrupt && error.message.contains(side.path), "\(error)")
        #expect(try Data(contentsOf: victim) == precious)
    }

    @Test func aLinkedSaveLogIsCorruptAndItsTargetUntouched() throws {
        let folder = try TemporaryDirectory()
        let model = ManagedObjectModel {
            EntityDescription("Left") { AttributeDescription("name", .string) }
            EntityDescription("Right") { AttributeDescription("name", .string) }
            ConfigurationDescription("L", entities: ["Left"])
            ConfigurationDescription("R", entities: ["Right"])
        }
        let victim = folder.file("victim")
        let precious = Data("keep me, whole".utf8)
        try precious.write(to: victim)
        try FileManager.default.createSymbolicLink(at: folder.file(".strata-save-log"), withDestinationURL: victim)
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        try coordinator.addStore(type: "SQLite", configuration: "L", at: folder.file("l.sqlite"))
        try coordinator.addStore(type: "LMDB", configuration: "R", at: folder.file("r.lmdb"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let error = try #require(throws: StoreError.self) {
            try context.performAndWait {
                try context.insertNewObject(forEntityName: "Left").setValue("a", forKey: "name")
                try context.insertNewObject(forEntityName: "Right").setValue("b", forKey: "name")
                try context.save()
            }
        }
        #expect(error.code == .corrupt && error.message.contains(".strata-save-log"), "\(error)")
        #expect(try Data(contentsOf: victim) == precious)
    }
}
