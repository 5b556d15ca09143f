import Foundation
import Testing

@Suite struct FixturePathsTests {
    @Test func fixturesAreCopiedIntoTheProject() {
        #expect(FileManager.default.fileExists(atPath: FixturePaths.coreData.appendingPathComponent("SOURCES.md").path))
    }
}
