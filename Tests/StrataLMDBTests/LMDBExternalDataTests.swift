import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataLMDB

/// The LMDB store keeps values of attributes allowing external storage as the SQLite store does:
/// marked in the record, and above 128 KiB in a file of `.<name>_SUPPORT/_EXTERNAL_DATA`.
@Suite struct LMDBExternalDataTests {
    static let model = ManagedObjectModel {
        EntityDescription("Scan") {
            AttributeDescription("name", .string)
            AttributeDescription("image", .binary).externallyStored()
        }
    }

    static let large = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    static let otherLarge = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) })

    struct Stack {
        let folder: TemporaryDirectory
        let coordinator: PersistentStoreCoordinator
        let context: ManagedObjectContext

        init(_ folder: TemporaryDirectory, relaxed: Bool = false) throws {
            self.folder = folder
            coordinator = try PersistentStoreCoordinator(model: LMDBExternalDataTests.model, storeTypes: [.lmdb])
            try coordinator.addStore(
                .lmdb(at: folder.file("Scans.lmdb"), options: LMDBStoreOptions(relaxedDurability: relaxed)))
            context = ManagedObjectContext(coordinator: coordinator)
        }

        var dataFolder: URL { folder.url.appendingPathComponent(".Scans.lmdb_SUPPORT/_EXTERNAL_DATA") }

        var files: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dataFolder.path)) ?? []).sorted()
        }

        func save(_ name: String, image: Data?) throws {
            try context.performAndWait {
                var request = FetchRequest<ManagedObject>(entityName: "Scan")
                request.predicate = try FetchPredicate(format: "name == %@", arguments: [name])
                let scan = try context.fetch(request).first ?? context.insertNewObject(forEntityName: "Scan")
                try scan.setValue(.string(name), forKey: "name")
                try scan.setValue(image.map(AttributeValue.binary) ?? .null, forKey: "image")
                try context.save()
            }
        }

        func image(_ name: String) throws -> AttributeValue? {
            try context.performAndWait {
                var request = FetchRequest<ManagedObject>(entityName: "Scan")
                request.predicate = try FetchPredicate(format: "name == %@", arguments: [name])
                return try context.fetch(request).first?.value(forKey: "image")
            }
        }
    }

    @Test func largeValuesLiveInFilesThatGoWithThem() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.save("scan", image: Self.large)
        let first = stack.files
        #expect(first.count == 1 && UUID(uuidString: first[0]) != nil)
        #expect(try Data(contentsOf: stack.dataFolder.appendingPathComponent(first[0])) == Self.large)
        #expect(try Stack(stack.folder).image("scan") == .binary(Self.large))
        try stack.save("scan", image: Self.otherLarge)
        #expect(stack.files.count == 1 && stack.files != first)
        try stack.save("scan", image: Data("short".utf8))
        #expect(stack.files.isEmpty)
        #expect(try Stack(stack.folder).image("scan") == .binary(Data("short".utf8)))
    }

    @Test func openingRemovesFilesNoRecordRefersTo() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.save("scan", image: Self.large)
        let kept = stack.files
        try Self.otherLarge.write(to: stack.dataFolder.appendingPathComponent(UUID().uuidString))
        try Self.otherLarge.write(to: stack.dataFolder.appendingPathComponent(UUID().uuidString + ".interim"))
        let reopened = try Stack(stack.folder)
        #expect(reopened.files == kept)
        #expect(try reopened.image("scan") == .binary(Self.large))
    }

    /// A store that may lose its last commits in a system crash keeps replaced files until an
    /// opening finds them unused, so that a lost commit never refers to a removed file.
    @Test func relaxedDurabilityLeavesReplacedFilesToTheNextOpening() throws {
        let folder = try TemporaryDirectory()
        let stack = try Stack(folder, relaxed: true)
        try stack.save("scan", image: Self.large)
        try stack.save("scan", image: Self.otherLarge)
        #expect(stack.files.count == 2)
        let reopened = try Stack(folder, relaxed: true)
        #expect(reopened.files.count == 1)
        #expect(try reopened.image("scan") == .binary(Self.otherLarge))
    }

    @Test func destroyingTheStoreRemovesItsSupportFolder() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.save("scan", image: Self.large)
        for store in stack.coordinator.stores { try stack.coordinator.remove(store) }
        try stack.coordinator.destroyStore(type: "LMDB", at: stack.folder.file("Scans.lmdb"))
        #expect(
            !FileManager.default.fileExists(atPath: stack.folder.url.appendingPathComponent(".Scans.lmdb_SUPPORT").path)
        )
    }
}
