import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// Replacing a store (what a copying migration does last) with one that keeps values in
/// external files: the files come with the records, so the replaced store reads every value;
/// a source whose data folder is a symbolic link is refused, and nothing it points to is read.
@Suite struct ExternalDataReplaceTests {
    static let types = ["SQLite", "LMDB"]

    static let model = ManagedObjectModel {
        EntityDescription("Scan") {
            AttributeDescription("name", .string)
            AttributeDescription("image", .binary).externallyStored()
        }
    }

    /// A value over the inline limit, different for each `seed`.
    static func large(_ seed: UInt8) -> Data { Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) &+ seed }) }

    static func save(_ name: String, image: Data, type: String, at url: URL) throws {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        let store = try coordinator.addStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let scan = try context.insertNewObject(forEntityName: "Scan")
            try scan.setValue(.string(name), forKey: "name")
            try scan.setValue(.binary(image), forKey: "image")
            try context.save()
        }
        try coordinator.remove(store)
    }

    static func images(type: String, at url: URL) throws -> [String: AttributeValue] {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        try coordinator.addStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            var images: [String: AttributeValue] = [:]
            for scan in try context.fetch(FetchRequest<ManagedObject>(entityName: "Scan")) {
                guard case .string(let name) = try scan.value(forKey: "name") else { continue }
                images[name] = try scan.value(forKey: "image")
            }
            return images
        }
    }

    /// A folder with a store `source.<type>` holding one scan, "moon", whose image is in a file.
    static func folderWithASource(
        _ type: String
    ) throws -> (folder: TemporaryDirectory, source: URL, destination: URL) {
        let folder = try TemporaryDirectory()
        let source = folder.file("source.\(type.lowercased())")
        try save("moon", image: large(1), type: type, at: source)
        return (folder, source, folder.file("destination.\(type.lowercased())"))
    }

    @Test(arguments: types)
    func aReplacedStoreReadsTheSourcesValuesFromItsFiles(_ type: String) throws {
        let (folder, source, destination) = try Self.folderWithASource(type)
        defer { withExtendedLifetime(folder) {} }
        try Self.save("old", image: Self.large(2), type: type, at: destination)
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: StoreType.builtInFileTypes)
        try coordinator.replaceStore(type: type, at: destination, withStoreFrom: source)
        #expect(try Self.images(type: type, at: destination) == ["moon": .binary(Self.large(1))])
        // The source keeps its own files.
        #expect(try Self.images(type: type, at: source) == ["moon": .binary(Self.large(1))])
    }

    @Test(arguments: types)
    func aSourceWhoseDataFolderIsALinkIsRefusedAndItsTargetLeftAlone(_ type: String) throws {
        let (folder, source, destination) = try Self.folderWithASource(type)
        let support = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).first {
                $0.hasPrefix(".source") && $0.hasSuffix("_SUPPORT")
            })
        let data = folder.url.appendingPathComponent(support).appendingPathComponent("_EXTERNAL_DATA")
        let elsewhere = try TemporaryDirectory()
        let secret = elsewhere.file("00000000-0000-0000-0000-000000000000")
        try Data("secret".utf8).write(to: secret)
        try FileManager.default.removeItem(at: data)
        try FileManager.default.createSymbolicLink(at: data, withDestinationURL: elsewhere.url)
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: StoreType.builtInFileTypes)
        let error = try #require(throws: StoreError.self) {
            try coordinator.replaceStore(type: type, at: destination, withStoreFrom: source)
        }
        #expect(error.code == .corrupt, "\(error)")
        #expect(try Data(contentsOf: secret) == Data("secret".utf8))
        let copied = FileManager.default.fileExists(
            atPath: folder.url.appendingPathComponent(".destination_SUPPORT/_EXTERNAL_DATA")
                .appendingPathComponent(secret.lastPathComponent).path)
        #expect(!copied)
    }
}
