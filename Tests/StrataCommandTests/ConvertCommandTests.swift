import Foundation
import StrataTestSupport
import Testing

@Suite struct ConvertCommandTests {
    static let types = ["SQLite", "LMDB", "XML", "Binary"]

    /// Every ordered pair of different built-in file store types.
    static let pairs = types.flatMap { from in types.filter { $0 != from }.map { (from, $0) } }

    @Test(arguments: pairs)
    func copiesTheSameObjectGraphIntoAnotherType(from sourceType: String, to type: String) throws {
        let directory = try TemporaryDirectory()
        let source = try CommandStores.written(type: sourceType, named: "guide.store", in: directory)
        let destination = directory.file("copy.store")
        let outcome = try StrataProcess.run(["convert", source.path, destination.path, "--to", type])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("City: 3 objects"))
        #expect(outcome.error.contains("Copied 5 of 5 objects"))
        let original = try StrataProcess.run(["dump", "--canonical", source.path])
        let copy = try StrataProcess.run(["dump", "--canonical", destination.path])
        #expect(copy.status == 0)
        #expect(original.output == copy.output)
        #expect(try StrataProcess.run(["inspect", destination.path]).output.contains("Type: \(type)"))
    }

    @Test func refusesAnExistingDestinationOrAnUnknownType() throws {
        let directory = try TemporaryDirectory()
        let source = try CommandStores.written(type: "SQLite", named: "guide.sqlite", in: directory)
        let taken = try StrataProcess.run(["convert", source.path, source.path, "--to", "XML"])
        #expect(taken.status == 1)
        #expect(taken.error.contains("already exists"))

        let paper = try StrataProcess.run(["convert", source.path, directory.file("copy").path, "--to", "Paper"])
        #expect(paper.status == 1)
        #expect(paper.error.contains("Unknown store type 'Paper'"))

        let unknown = try StrataProcess.run(["convert", source.path, directory.file("copy").path])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("name it with --to"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("copy").path))
    }

    @Test func aFailedCopyLeavesNoDestinationAndTheSourceIntact() throws {
        let directory = try TemporaryDirectory()
        let source = try CommandStores.writtenWithDanglingReference(in: directory)
        let before = try Data(contentsOf: source)
        let destination = directory.file("copy.lmdb")
        let outcome = try StrataProcess.run(["convert", source.path, destination.path])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("does not hold"))
        #expect(outcome.error.split(separator: "\n").last?.hasPrefix("strata: ") == true)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try Data(contentsOf: source) == before)
    }

    @Test func failsOnAMissingOrCorruptSourceAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let destination = directory.file("copy.binary")
        let missing = try StrataProcess.run(["convert", directory.file("none.sqlite").path, destination.path])
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("strata: There is no file at"))

        let damaged = directory.file("damaged.xml")
        try Data("<?xml version=\"1.0\"?>\n<database><databaseInfo><version>".utf8).write(to: damaged)
        let corrupt = try StrataProcess.run(["convert", damaged.path, destination.path])
        #expect(corrupt.status == 1)
        #expect(corrupt.error.hasPrefix("strata: "))
        #expect(corrupt.error.contains("damaged.xml"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
}
