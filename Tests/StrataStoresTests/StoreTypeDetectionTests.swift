import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

@Suite struct StoreTypeDetectionTests {
    @Test(arguments: ["SQLite", "LMDB", "XML", "Binary"])
    func detectsEachBuiltInStoreFromItsContent(type: String) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("store.data")
        try ContainerModel.writeStore(type: type, at: url)
        #expect(try StoreType.detectTypeName(ofFileAt: url) == type)
    }

    @Test func detectsAnXMLStoreAfterItsPrologue() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("store.xml")
        let text = "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<!DOCTYPE database>\n<database></database>"
        try Data(text.utf8).write(to: url)
        #expect(try StoreType.detectTypeName(ofFileAt: url) == "XML")
    }

    @Test func rejectsOtherFilesNamingTheirFirstBytes() throws {
        let directory = try TemporaryDirectory()
        let text = directory.file("notes.txt")
        try Data("hello".utf8).write(to: text)
        let error = try #require(throws: StoreError.self) { try StoreType.detectTypeName(ofFileAt: text) }
        #expect(error.code == .unknownStoreType)
        #expect(error.message.contains("notes.txt") && error.message.contains("68 65 6c 6c 6f"))

        let otherXML = directory.file("other.xml")
        try Data("<?xml version=\"1.0\"?><plist></plist>".utf8).write(to: otherXML)
        #expect(throws: StoreError.self) { try StoreType.detectTypeName(ofFileAt: otherXML) }

        let empty = directory.file("empty")
        try Data().write(to: empty)
        let emptyError = try #require(throws: StoreError.self) { try StoreType.detectTypeName(ofFileAt: empty) }
        #expect(emptyError.message.contains("empty"))
    }

    @Test func missingFilesAndDirectoriesAreIOErrors() throws {
        let directory = try TemporaryDirectory()
        let missing = try #require(throws: StoreError.self) {
            try StoreType.detectTypeName(ofFileAt: directory.file("absent"))
        }
        #expect(missing.code == .io && missing.message.contains("absent"))
        let folder = try #require(throws: StoreError.self) { try StoreType.detectTypeName(ofFileAt: directory.url) }
        #expect(folder.code == .io)
    }
}
