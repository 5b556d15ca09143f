import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataSQLite

/// The name of an external data file is read from the store's own rows, which other processes
/// and crafted files write: a name no store writes is `corrupt` on every path that would use it
/// (update, clear, delete, batch delete, migration, destruction), and no file outside the store's
/// folder of external data is ever removed, whatever the row names.
@Suite struct SQLiteExternalDataNameTests {
    typealias Stack = SQLiteExternalDataTests.Stack

    /// What a save or request does to the object named "long".
    enum Action: CaseIterable {
        case replace, clear, delete, batchDelete
    }

    /// A store holding a long value, loaded by a context; then another writer changes the
    /// column to name `bytes`, and the context or a batch request acts on the object.
    @Test(arguments: Action.allCases)
    func aHostileNameIsCorruptAndRemovesNothing(_ action: Action) throws {
        for hostile in HostileFileNames.all(victim: "/placeholder") {
            let folder = try TemporaryDirectory()
            let victim = folder.url.appendingPathComponent("victim")
            try Data("keep me".utf8).write(to: victim)
            let bytes = hostile.label == "an absolute path" ? Array(victim.path.utf8) : hostile.bytes
            let stack = try Stack(folder)
            try stack.insert("long", image: SQLiteExternalDataTests.large)
            let scan = try stack.scan("long")
            try Self.setColumn(of: "long", in: folder, to: [2] + bytes + [0])
            #expect("\(action) with \(hostile.label)") {
                switch action {
                case .replace, .clear, .delete:
                    try stack.context.performAndWait {
                        switch action {
                        case .replace: try scan.setValue(.binary(SQLiteExternalDataTests.otherLarge), forKey: "image")
                        case .clear: try scan.setValue(.null, forKey: "image")
                        default: try stack.context.delete(scan)
                        }
                        try stack.context.save()
                    }
                case .batchDelete:
                    _ = try stack.coordinator.execute(BatchDeleteRequest(entityName: "Scan"))
                }
            } throws: { error in
                HostileFileNames.isCorrupt(error, naming: "Scan.image")
            }
            #expect(FileManager.default.fileExists(atPath: victim.path), "\(action) with \(hostile.label)")
            #expect(stack.files.count == 1, "the store's own file stays: \(action) with \(hostile.label)")
        }
    }

    /// Reading, migrating and destroying a store whose row names `../../victim`.
    @Test func readingMigratingAndDestroyingRemoveNothingOutside() throws {
        let folder = try TemporaryDirectory()
        let victim = folder.url.appendingPathComponent("victim")
        try Data("keep me".utf8).write(to: victim)
        do {
            let stack = try Stack(folder)
            try stack.insert("long", image: SQLiteExternalDataTests.large)
            try stack.coordinator.remove(stack.store)
        }
        try Self.setColumn(of: "long", in: folder, to: [2] + Array("../../victim".utf8) + [0])
        let reopened = try Stack(folder)
        #expect {
            _ = try reopened.image("long")
        } throws: { HostileFileNames.isCorrupt($0, naming: "Scan.image") }
        try reopened.coordinator.remove(reopened.store)

        let renamed = ManagedObjectModel {
            EntityDescription("Scan") {
                AttributeDescription("name", .string)
                AttributeDescription("image", .binary).externallyStored()
                AttributeDescription("thumbnail", .binary)
                AttributeDescription("caption", .string)
            }
        }
        let url = folder.file("Scans.sqlite")
        #expect {
            try MigrationManager(sourceModel: SQLiteExternalDataTests.model, destinationModel: renamed).migrateStore(
                from: url, type: .sqlite, to: folder.file("Migrated.sqlite"), type: .sqlite,
                mapping: try .inferred(from: SQLiteExternalDataTests.model, to: renamed))
        } throws: { HostileFileNames.isCorrupt($0, naming: "Scan.image") }
        #expect(FileManager.default.fileExists(atPath: victim.path))

        let coordinator = try PersistentStoreCoordinator(model: SQLiteExternalDataTests.model, storeTypes: [.sqlite])
        try coordinator.destroyStore(type: "SQLite", at: url)
        #expect(FileManager.default.fileExists(atPath: victim.path))
        #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
    }

    /// A support folder or folder of external data that is a symbolic link is never followed:
    /// the sweep at opening removes nothing it points to, a save that would write there is
    /// `corrupt`, and destroying the store leaves the linked folder whole.
    @Test(arguments: [".Scans_SUPPORT", ".Scans_SUPPORT/_EXTERNAL_DATA"])
    func aLinkedFolderIsNeverFollowed(_ linked: String) throws {
        let folder = try TemporaryDirectory()
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        let target = linked.hasSuffix("_EXTERNAL_DATA") ? elsewhere : elsewhere.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: elsewhere.appendingPathComponent(linked.hasSuffix("_EXTERNAL_DATA") ? "" : "_EXTERNAL_DATA"),
            withIntermediateDirectories: true)
        let precious = [UUID().uuidString, "notes.txt"]
        let preciousFolder =
            linked.hasSuffix("_EXTERNAL_DATA") ? elsewhere : elsewhere.appendingPathComponent("_EXTERNAL_DATA")
        for name in precious { try Data("keep me".utf8).write(to: preciousFolder.appendingPathComponent(name)) }
        if linked.hasSuffix("_EXTERNAL_DATA") {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(".Scans_SUPPORT"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: folder.url.appendingPathComponent(linked), withDestinationURL: target)
        } else {
            try FileManager.default.createSymbolicLink(
                at: folder.url.appendingPathComponent(linked), withDestinationURL: elsewhere)
        }

        let stack = try Stack(folder)
        try stack.insert("short", image: SQLiteExternalDataTests.small)
        #expect {
            try stack.insert("long", image: SQLiteExternalDataTests.large)
        } throws: { HostileFileNames.isCorrupt($0, naming: "symbolic link") }
        try stack.coordinator.remove(stack.store)
        _ = try Stack(folder)
        #expect {
            let coordinator = try PersistentStoreCoordinator(
                model: SQLiteExternalDataTests.model, storeTypes: [.sqlite])
            try coordinator.destroyStore(type: "SQLite", at: folder.file("Scans.sqlite"))
        } throws: { HostileFileNames.isCorrupt($0, naming: "symbolic link") }
        for name in precious {
            #expect(FileManager.default.fileExists(atPath: preciousFolder.appendingPathComponent(name).path))
        }
    }

    /// Writes `bytes` into the `image` column of `name`'s row, as another process would.
    static func setColumn(of name: String, in folder: TemporaryDirectory, to bytes: [UInt8]) throws {
        let connection = try SQLiteConnection(path: folder.file("Scans.sqlite").path, mode: .readWrite)
        try connection.statement("UPDATE ZSCAN SET ZIMAGE = ? WHERE ZNAME = ?").execute([.blob(bytes), .text(name)])
    }
}
