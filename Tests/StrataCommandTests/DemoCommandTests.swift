import Foundation
import StrataTestSupport
import Testing

@Suite struct DemoCommandTests {
    @Test func tellsTheWholeStoryAndLeavesTheStores() throws {
        let directory = try TemporaryDirectory()
        let outcome = try StrataProcess.run(["demo", "--directory", directory.url.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("144 City, 432 PointOfInterest, 60 Visit, 40 Tip"))
        #expect(outcome.output.contains("6 visits from LMDB and 6 tips from XML"))
        #expect(outcome.output.contains("fired 5 faults"))
        #expect(
            outcome.output.contains(
                "Visit 1 (LMDB) points at Arcville 000 (SQLite), which lists 3 visits; "
                    + "\"city.name == 'Arcville 000'\" finds Visit 1, Visit 21, Visit 41 in two steps"))
        #expect(outcome.output.contains("removed 1 Country, 4 State, 12 County, 48 City, 144 PointOfInterest"))
        #expect(outcome.output.contains("killed after the SQLite store committed"))
        #expect(outcome.output.contains("completed it: 1 city, 1 visit, 1 tip"))
        #expect(outcome.output.contains("97 cities fetched from it, Visit 1 (LMDB) still pointing at Arcville 000"))
        let binary = directory.file("guidebook-atlas.binary")
        #expect(try StrataProcess.run(["validate", binary.path]).status == 0)

        let again = try StrataProcess.run(["demo", "--directory", directory.url.path])
        #expect(again.status == 0)
        #expect(again.output.contains("144 City"))
    }

    @Test func failsWhenTheDirectoryIsAFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("taken")
        try Data("x".utf8).write(to: file)
        let outcome = try StrataProcess.run(["demo", "--directory", file.path])
        #expect(outcome.status == 1)
        #expect(outcome.error.hasPrefix("strata: "))
        #expect(outcome.error.split(separator: "\n").count == 1)
    }
}
