import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataSQLite

/// Values of attributes allowing external storage are kept as Core Data keeps them: behind a
/// marker byte in their column, and above 128 KiB in a file of `.<name>_SUPPORT/_EXTERNAL_DATA`
/// written before the save commits and removed once no row refers to it.
@Suite struct SQLiteExternalDataTests {
    static let model = ManagedObjectModel {
        EntityDescription("Scan") {
            AttributeDescription("name", .string)
            AttributeDescription("image", .binary).externallyStored()
            AttributeDescription("thumbnail", .binary)
        }
    }

    static let large = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    static let otherLarge = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) })
    static let small = Data("a short value".utf8)

    struct Stack {
        let folder: TemporaryDirectory
        let coordinator: PersistentStoreCoordinator
        let store: any IncrementalStore
        let context: ManagedObjectContext

        init(_ folder: TemporaryDirectory) throws {
            self.folder = folder
            coordinator = try PersistentStoreCoordinator(model: SQLiteExternalDataTests.model, storeTypes: [.sqlite])
            store = try coordinator.addStore(type: "SQLite", at: folder.file("Scans.sqlite"))
            context = ManagedObjectContext(coordinator: coordinator)
        }

        var dataFolder: URL { folder.url.appendingPathComponent(".Scans_SUPPORT/_EXTERNAL_DATA") }

        var files: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dataFolder.path)) ?? []).sorted()
        }

        func insert(_ name: String, image: Data?) throws {
            try context.performAndWait {
                let scan = try context.insertNewObject(forEntityName: "Scan")
                try scan.setValue(.string(name), forKey: "name")
                try scan.setValue(image.map(AttributeValue.binary) ?? .null, forKey: "image")
                try context.save()
            }
        }

        func scan(_ name: String) throws -> ManagedObject {
            var request = FetchRequest<ManagedObject>(entityName: "Scan")
            request.predicate = try FetchPredicate(format: "name == %@", arguments: [name])
            return try #require(try context.performAndWait { try context.fetch(request).first })
        }

        func image(_ name: String) throws -> AttributeValue {
            let scan = try scan(name)
            return try context.performAndWait { try scan.value(forKey: "image") }
        }

        func set(_ image: Data?, on name: String) throws {
            let scan = try scan(name)
            try context.performAndWait {
                try scan.setValue(image.map(AttributeValue.binary) ?? .null, forKey: "image")
                try context.save()
            }
        }

        /// The raw bytes of the `image` column of `name`'s row.
        func column(_ name: String) throws -> [UInt8]? {
            let connection = try SQLiteConnection(path: folder.file("Scans.sqlite").path, mode: .readOnly)
            let values = try connection.statement("SELECT ZIMAGE FROM ZSCAN WHERE ZNAME = '\(name)'").rows {
                $0.value(at: 0)
            }
            guard case .blob(let bytes)? = values.first else { return nil }
            return bytes
        }
    }

    @Test func shortValuesStayInTheirColumnBehindAMarker() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("short", image: Self.small)
        try stack.insert("none", image: nil)
        #expect(try stack.column("short") == [1] + Array(Self.small))
        #expect(try stack.column("none") == nil)
        #expect(stack.files.isEmpty)
        #expect(try Stack(stack.folder).image("short") == .binary(Self.small))
    }

    @Test func longValuesGoToAFileNamedInTheColumn() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("long", image: Self.large)
        let files = stack.files
        #expect(files.count == 1)
        let name = try #require(files.first)
        #expect(UUID(uuidString: name) != nil)
        #expect(try stack.column("long") == [2] + Array(name.utf8) + [0])
        #expect(try Data(contentsOf: stack.dataFolder.appendingPathComponent(name)) == Self.large)
        #expect(try Stack(stack.folder).image("long") == .binary(Self.large))
    }

    @Test func filesGoWithTheValuesTheyHold() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("long", image: Self.large)
        let first = stack.files
        try stack.context.performAndWait {
            let scan = try stack.scan("long")
            try scan.setValue("renamed", forKey: "name")
            try stack.context.save()
        }
        #expect(stack.files == first, "an update leaving the value as it was keeps its file")
        try stack.set(Self.otherLarge, on: "renamed")
        #expect(stack.files.count == 1 && stack.files != first, "a new value replaces the file")
        #expect(try Stack(stack.folder).image("renamed") == .binary(Self.otherLarge))
        try stack.set(Self.small, on: "renamed")
        #expect(stack.files.isEmpty)
        try stack.set(Self.large, on: "renamed")
        #expect(stack.files.count == 1)
        let scan = try stack.scan("renamed")
        try stack.context.performAndWait {
            try stack.context.delete(scan)
            try stack.context.save()
        }
        #expect(stack.files.isEmpty, "deleting the object removes its file")
    }

    @Test func aQueryGenerationKeepsTheFilesItMayRead() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("long", image: Self.large)
        var generation = try stack.store.openGeneration()
        #expect(generation != nil)
        try stack.set(Self.otherLarge, on: "long")
        #expect(stack.files.count == 2, "the replaced file stays while the older view is open")
        generation = nil
        try stack.set(Self.small, on: "long")
        #expect(stack.files.isEmpty)
    }

    @Test func aStoreBesideAnotherOfTheSameNameLeavesItsFilesAlone() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("long", image: Self.large)
        let kept = stack.files
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        try coordinator.addStore(type: "SQLite", at: stack.folder.file("Scans.db"))
        #expect(stack.files == kept, "opening Scans.db sweeps nothing of Scans.sqlite")
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect {
            try context.performAndWait {
                let scan = try context.insertNewObject(forEntityName: "Scan")
                try scan.setValue(.binary(Self.otherLarge), forKey: "image")
                try context.save()
            }
        } throws: { error in
            "\(error)".contains("belongs to another store file")
        }
        #expect(stack.files == kept)
    }

    @Test func aFailedSaveLeavesNoFile() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("long", image: Self.small)
        let other = try Stack(stack.folder)
        try other.set(Self.small + Data([1]), on: "long")
        let scan = try stack.scan("long")
        #expect(throws: ContextError.self) {
            try stack.context.performAndWait {
                try scan.setValue(.binary(Self.large), forKey: "image")
                try stack.context.save()
            }
        }
        #expect(stack.files.isEmpty, "the conflicting save's file is removed")
    }

    @Test func openingRemovesFilesNoRowRefersTo() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("long", image: Self.large)
        let kept = stack.files
        let stray = stack.dataFolder.appendingPathComponent(UUID().uuidString)
        try Self.otherLarge.write(to: stray)
        try Self.otherLarge.write(to: stack.dataFolder.appendingPathComponent(UUID().uuidString + ".interim"))
        #expect(stack.files.count == 3)
        let reopened = try Stack(stack.folder)
        #expect(reopened.files == kept)
        #expect(try reopened.image("long") == .binary(Self.large))
    }

    @Test func aMissingFileIsACorruptStoreNamingIt() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("long", image: Self.large)
        let name = try #require(stack.files.first)
        try FileManager.default.removeItem(at: stack.dataFolder.appendingPathComponent(name))
        let reopened = try Stack(stack.folder)
        #expect {
            _ = try reopened.image("long")
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .corrupt && error?.message.contains(name) == true
                && error?.message.contains("'Scan.image'") == true
        }
    }

    @Test func predicatesAndBatchDeletionsSeeTheValuesNotTheMarkers() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("long", image: Self.large)
        try stack.insert("short", image: Self.small)
        try stack.context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Scan")
            request.predicate = try FetchPredicate(
                format: "image == %@", arguments: [AttributeValue.binary(Self.large)])
            #expect(try stack.context.fetch(request).count == 1)
            request.predicate = try FetchPredicate(
                format: "image == %@", arguments: [AttributeValue.binary(Self.small)])
            #expect(try stack.context.fetch(request).count == 1)
        }
        _ = try stack.coordinator.execute(BatchDeleteRequest(entityName: "Scan"))
        #expect(stack.files.isEmpty)
    }

    @Test func destroyingTheStoreRemovesItsSupportFolder() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("long", image: Self.large)
        try stack.coordinator.remove(stack.store)
        try stack.coordinator.destroyStore(type: "SQLite", at: stack.folder.file("Scans.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: stack.folder.url.appendingPathComponent(".Scans_SUPPORT").path))
    }
}
