import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataBinary

/// Damaged and foreign files give typed errors, through opening and through reading the
/// metadata, and stay byte for byte as they were, with nothing added beside them.
@Suite struct BinaryStoreBadInputTests {
    let stack: BinaryStoreTestStack

    init() throws {
        stack = try BinaryStoreTestStack()
    }

    /// The bytes of a saved store of 3 teams of 4 people.
    private func savedStore() throws -> [UInt8] {
        try stack.fill(teams: 3, membersPerTeam: 4)
        return [UInt8](try Data(contentsOf: stack.url))
    }

    /// Writes `bytes` as the store file, then expects opening it and reading its metadata to
    /// throw `code` with a message containing `text`, and the file and folder to stay as they were.
    private func expectRefused(
        _ bytes: [UInt8], _ code: StoreError.Code, mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try Data(bytes).write(to: stack.url)
        let folder = try FileManager.default.contentsOfDirectory(atPath: stack.directory.url.path).sorted()
        let coordinator = try stack.coordinator()
        let attempts: [() throws -> Void] = [
            { _ = try coordinator.addStore(type: StoreType.binary.name, at: stack.url) },
            { _ = try coordinator.metadataForStore(type: StoreType.binary.name, at: stack.url) },
        ]
        for attempt in attempts {
            let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) { try attempt() }
            #expect(error?.code == code, "\(error?.message ?? "")", sourceLocation: sourceLocation)
            #expect(error?.message.contains(stack.url.path) == true, sourceLocation: sourceLocation)
            #expect(
                error?.message.contains(text) == true, "'\(error?.message ?? "")' lacks '\(text)'",
                sourceLocation: sourceLocation)
        }
        #expect([UInt8](try Data(contentsOf: stack.url)) == bytes, "The file changed", sourceLocation: sourceLocation)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: stack.directory.url.path).sorted() == folder,
            sourceLocation: sourceLocation)
    }

    @Test func truncatedFilesAreCorrupt() throws {
        let bytes = try savedStore()
        for length in [1, 7, 8, 12, 23, 24, 25, bytes.count / 2, bytes.count - 5, bytes.count - 1] {
            let text = length < 8 ? "cut short" : length < 24 ? "header" : "cut short"
            try expectRefused(Array(bytes[..<length]), .corrupt, mentioning: text)
        }
    }

    @Test func flippedBytesAreCaughtByTheChecksums() throws {
        let bytes = try savedStore()
        var random = SystemRandomNumberGenerator()
        let positions =
            [8, 12, 19, 20, 24, 30, bytes.count / 2, bytes.count - 5, bytes.count - 1]
            + (0..<20).map { _ in Int.random(in: 8..<bytes.count, using: &random) }
        for position in positions {
            var flipped = bytes
            flipped[position] ^= UInt8.random(in: 1...255, using: &random)
            try expectRefused(flipped, .corrupt, mentioning: "checksum")
        }
    }

    @Test func aFlippedMagicByteIsAnotherKindOfFile() throws {
        var bytes = try savedStore()
        bytes[3] ^= 0x20
        try expectRefused(bytes, .corrupt, mentioning: "another kind of file")
    }

    @Test func aNewerFormatVersionIsUnsupported() throws {
        _ = try savedStore()
        try BinaryStoreFiles.markNewerFormatVersion(at: stack.url)
        try expectRefused(
            [UInt8](try Data(contentsOf: stack.url)), .unsupported,
            mentioning: "format version \(BinaryStoreFormat.version + 1)")
    }

    @Test func anAppleMadeSQLiteStoreIsAnotherKindOfFile() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../Fixtures/coredata/wibosco-CoreDataMigrationRevised-Example/CoreDataMigration-ExampleTests/Resources/"
                + "SQLite/CoreDataMigration_Example_1.sqlite")
        try expectRefused([UInt8](try Data(contentsOf: fixture)), .corrupt, mentioning: "another kind of file")
    }

    @Test func anAppleMadeXMLDocumentIsAnotherKindOfFile() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../Fixtures/coredata/fruitsamples-MigrationV2/Models/MappingModel.xcmappingmodel/xcmapping.xml")
        try expectRefused([UInt8](try Data(contentsOf: fixture)), .corrupt, mentioning: "another kind of file")
    }

    @Test func aJSONStoreIsAnotherKindOfFile() throws {
        let json = stack.directory.file("store.json")
        let coordinator = try PersistentStoreCoordinator(model: stack.model, storeTypes: [.jsonFile()])
        let store = try coordinator.addStore(type: "JSON", at: json)
        try coordinator.setUserInfo(["owner": "Ada"], for: store)
        try coordinator.remove(store)
        try expectRefused([UInt8](try Data(contentsOf: json)), .corrupt, mentioning: "another kind of file")
    }

    @Test func aKeyedArchiveIsAnotherKindOfFile() throws {
        let archive = try PropertyListSerialization.data(
            fromPropertyList: ["$archiver": "NSKeyedArchiver", "$version": 100_000], format: .binary, options: 0)
        try expectRefused([UInt8](archive), .corrupt, mentioning: "another kind of file")
    }

    @Test func randomBytesAfterTheMagicAreCorrupt() throws {
        var random = SystemRandomNumberGenerator()
        for count in [0, 10, 100, 4_096] {
            let garbage = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            try expectRefused(BinaryStoreFormat.magic + garbage, .corrupt, mentioning: "damaged at byte")
        }
    }

    @Test func aBodyWithGoodChecksumsButBadContentsNamesThePosition() throws {
        var bytes = try savedStore()
        bytes[BinaryStoreFormat.headerLength] = 0xFF
        BinaryStoreFiles.fixChecksum(of: &bytes)
        try expectRefused(bytes, .corrupt, mentioning: "damaged at byte 24")
    }

    @Test func damagedBodiesWithRightChecksumsNeverTrap() throws {
        let bytes = try savedStore()
        var random = SystemRandomNumberGenerator()
        let body = BinaryStoreFormat.headerLength..<(bytes.count - BinaryStoreFormat.trailerLength)
        for _ in 0..<500 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                damaged[Int.random(in: body, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            BinaryStoreFiles.fixChecksum(of: &damaged)
            try Data(damaged).write(to: stack.url)
            do {
                _ = try BinaryStore(fileURL: stack.url).load()
            } catch let error as StoreError {
                #expect(error.code == .corrupt && error.message.contains("damaged at byte"), "\(error.message)")
            }
        }
    }

    @Test func aZeroLengthFileIsANewStore() throws {
        try Data().write(to: stack.url)
        let people = try stack.withStore { try BinaryStoreTestStack.count("Person", in: $0) }
        #expect(people == 0)
    }
}
