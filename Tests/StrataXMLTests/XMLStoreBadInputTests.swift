import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataXML

/// Files that are not sound XML stores each give a typed error naming the file, and are left
/// byte for byte as they were.
@Suite struct XMLStoreBadInputTests {
    let directory: TemporaryDirectory
    let url: URL

    init() throws {
        directory = try TemporaryDirectory()
        url = directory.file("library.xml")
    }

    /// A saved store of a few authors and books.
    private func savedStore() throws -> Data {
        try XMLStore(fileURL: url).write(LibraryGraph.contents(authors: 3, booksEach: 2))
        return try Data(contentsOf: url)
    }

    /// Opening the file at `url` through a coordinator throws a StoreError with `code` whose
    /// message names the file and holds `detail`, and the file is unchanged.
    private func expectRefusal(_ code: StoreError.Code, mentioning detail: String) throws {
        let before = try Data(contentsOf: url)
        let coordinator = try PersistentStoreCoordinator(model: LibraryGraph.model, storeTypes: [.xml])
        #expect {
            try coordinator.addStore(type: StoreType.xml.name, at: url)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == code && error.message.contains(url.path) && error.message.contains(detail)
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aTruncatedStoreIsCorrupt() throws {
        let saved = try savedStore()
        for length in [1, 24, saved.count / 2, saved.count - 12] {
            try saved.prefix(length).write(to: url)
            try expectRefusal(.corrupt, mentioning: "line ")
        }
    }

    @Test func malformedXMLNamesTheLineAndColumn() throws {
        let text = String(decoding: try savedStore(), as: UTF8.self)
        try text.replacingOccurrences(of: "</attribute>", with: "</atribute>").write(
            to: url, atomically: false, encoding: .utf8)
        let line = text.prefix(upTo: text.range(of: "</attribute>")!.lowerBound).filter(\.isNewline).count + 1
        try expectRefusal(.corrupt, mentioning: "line \(line), column ")
    }

    @Test func anSQLiteFileIsCorrupt() throws {
        var bytes = Data("SQLite format 3\u{0}".utf8)
        bytes.append(Data(repeating: 0, count: 4_080))
        try bytes.write(to: url)
        try expectRefusal(.corrupt, mentioning: "not well-formed XML")
    }

    @Test func aJSONFileIsCorrupt() throws {
        try Data(#"{"formatVersion": 1, "nodes": []}"#.utf8).write(to: url)
        try expectRefusal(.corrupt, mentioning: "line 1, column 1")
    }

    @Test func anXMLFileThatIsNotAStoreIsCorrupt() throws {
        try Data(#"<?xml version="1.0"?><model type="com.apple.IDECoreDataModeler.DataModel"/>"#.utf8).write(to: url)
        try expectRefusal(.corrupt, mentioning: "root element is not <database>")
    }

    @Test func aNewerFormatVersionIsUnsupported() throws {
        _ = try savedStore()
        try XMLStoreTestFiles.markNewerFormatVersion(at: url)
        try expectRefusal(.unsupported, mentioning: "format version 134481921")
    }

    @Test func anUnknownEntityIsCorruptNamingItsLine() throws {
        let text = String(decoding: try savedStore(), as: UTF8.self)
        let object = #"<object type="BOOK" id="z3""#
        try text.replacingOccurrences(of: object, with: #"<object type="BOOT" id="z3""#)
            .write(to: url, atomically: false, encoding: .utf8)
        let line = text.prefix(upTo: text.range(of: object)!.lowerBound).filter(\.isNewline).count + 1
        try expectRefusal(.corrupt, mentioning: "line \(line): an <object> names no entity of the model (type 'BOOT')")
    }

    @Test func aNewerFormatVersionIsUnsupportedWhateverFollowsIt() throws {
        let text = String(decoding: try savedStore(), as: UTF8.self)
        let metadata = try #require(text.range(of: "<metadata>")?.lowerBound)
        let end = try #require(text.range(of: "</metadata>")?.upperBound)
        try text.replacingCharacters(in: metadata..<end, with: "<metadata><future/></metadata>")
            .replacingOccurrences(of: "<version>134481920</version>", with: "<version>134481921</version>")
            .write(to: url, atomically: false, encoding: .utf8)
        try expectRefusal(.unsupported, mentioning: "format version 134481921")
    }

    @Test func metadataDataMayBeBrokenByWhitespaceButNotByOtherCharacters() throws {
        let text = String(decoding: try savedStore(), as: UTF8.self)
        let saved = try #require(try XMLStore(fileURL: url).load()).metadata
        let data = try #require(text.range(of: "<data>")).upperBound
        let split = text.index(data, offsetBy: 8)
        try (text[..<split] + "\n\t\t \r\n" + text[split...]).write(to: url, atomically: false, encoding: .utf8)
        #expect(try XMLStore(fileURL: url).load()?.metadata == saved)
        try (text[..<split] + "\u{A0}" + text[split...]).write(to: url, atomically: false, encoding: .utf8)
        try expectRefusal(.corrupt, mentioning: "<data>")
    }

    @Test func aValueThatDoesNotReadAsItsTypeIsCorrupt() throws {
        let text = String(decoding: try savedStore(), as: UTF8.self)
        try text.replacingOccurrences(of: #"type="decimal">0.95<"#, with: #"type="decimal">zero<"#)
            .write(to: url, atomically: false, encoding: .utf8)
        try expectRefusal(.corrupt, mentioning: "attribute 'price' does not hold a value of type 'decimal'")
    }

    @Test func anEntityReferenceIsRefused() throws {
        let text = String(decoding: try savedStore(), as: UTF8.self)
        try text.replacingOccurrences(
            of: #"<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">"#,
            with: #"<!DOCTYPE database [<!ENTITY secret SYSTEM "file:///etc/passwd">]>"#
        ).replacingOccurrences(of: ">Author 0<", with: ">&secret;<").write(to: url, atomically: false, encoding: .utf8)
        try expectRefusal(.corrupt, mentioning: "'&secret;' is not expanded")
    }

    /// The saved store with the first match of `pattern` in its text replaced as `replacement`
    /// makes it, opened by a new coordinator; its context.
    private func context(
        replacing pattern: String, with replacement: (Substring) -> String
    ) throws -> ManagedObjectContext {
        let text = String(decoding: try savedStore(), as: UTF8.self)
        let match = try #require(text.range(of: pattern, options: .regularExpression))
        try text.replacingCharacters(in: match, with: replacement(text[match])).write(
            to: url, atomically: false, encoding: .utf8)
        let coordinator = try PersistentStoreCoordinator(model: LibraryGraph.model, storeTypes: [.xml])
        try coordinator.addStore(type: StoreType.xml.name, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// A file whose counter of object numbers is at its limit: the next insert is `corrupt`, not
    /// an arithmetic trap.
    @Test func anObjectCounterAtItsLimitIsCorrupt() throws {
        let context = try context(replacing: #"<nextObjectID>\d+</nextObjectID>"#) { _ in
            "<nextObjectID>\(Int64.max - 1)</nextObjectID>"
        }
        #expect {
            try context.performAndWait {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue("New", forKey: "name")
                try context.save()
            }
        } throws: { HostileFileNames.isCorrupt($0, naming: "next object number") }
    }

    /// A file holding an object at version `Int64.max`: updating it is `corrupt`.
    @Test func aVersionAtItsLimitIsCorrupt() throws {
        let context = try context(replacing: #"<object type="AUTHOR" id="z\d+""#) {
            $0 + #" version="\#(Int64.max)""#
        }
        #expect {
            try context.performAndWait {
                for author in try context.fetch(FetchRequest<ManagedObject>(entityName: "Author")) {
                    try author.setValue("Renamed", forKey: "name")
                }
                try context.save()
            }
        } throws: { HostileFileNames.isCorrupt($0, naming: "version \(Int64.max)") }
    }
}
