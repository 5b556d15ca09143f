import Foundation
import StrataTestSupport
import Testing

@_spi(StoreAuthoring) @testable import Strata

@Suite struct AtomicFileReplacementTests {
    private func leftovers(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".tmp") }
    }

    @Test func theNewContentsReplaceTheOldAndNoTemporaryFileRemains() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("store.xml")
        try Data("old".utf8).write(to: file)
        try AtomicFileReplacement.replace(file, storeName: "XML") { try Data("new".utf8).write(to: $0) }
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(try leftovers(in: directory).isEmpty)
    }

    @Test func aFailedWriteLeavesTheOldFileAndRethrowsStoreErrors() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("store.bin")
        try Data("old".utf8).write(to: file)
        let error = #expect(throws: StoreError.self) {
            try AtomicFileReplacement.replace(file, storeName: "Binary") { temporary in
                try Data("half".utf8).write(to: temporary)
                throw StoreError(code: .invalidChange, message: "Cannot encode Note.text.")
            }
        }
        #expect(error?.code == .invalidChange)
        #expect(try Data(contentsOf: file) == Data("old".utf8))
        #expect(try leftovers(in: directory).isEmpty)
    }

    @Test func otherFailuresBecomeIOErrorsNamingTheStoreAndFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("missing-folder/store.bin")
        let error = #expect(throws: StoreError.self) {
            try AtomicFileReplacement.replace(file, storeName: "Binary") { try Data("new".utf8).write(to: $0) }
        }
        #expect(error?.code == .io)
        #expect(error?.message.contains("Binary") == true)
        #expect(error?.message.contains(file.path) == true)
    }
}
