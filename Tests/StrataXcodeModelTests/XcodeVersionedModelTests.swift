import Foundation
import Strata
import StrataXcodeModel
import Testing

@Suite struct XcodeVersionedModelTests {
    @Test(arguments: [
        (
            "wibosco-CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld",
            [
                "CoreDataMigration_Example", "CoreDataMigration_Example 2", "CoreDataMigration_Example 3",
                "CoreDataMigration_Example 4",
            ], "CoreDataMigration_Example 4"
        ),
        (
            "jeffreybergier-CoreDataMigrationTests/CoreDataMigration/CoreDataMigration/Model.xcdatamodeld",
            ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"], "v2.0.0"
        ),
        (
            "alemar11-CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld",
            ["SampleModel", "SampleModel2", "SampleModel3"], "SampleModel"
        ),
        (
            "alemar11-CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld",
            ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"], "SampleModel3"
        ),
    ])
    func fixtureVersionsAndCurrentVersion(_ path: String, _ versions: [String], _ current: String) throws {
        let bundle = try XcodeVersionedModel(contentsOf: FixturePaths.url(path))
        #expect(bundle.versionNames == versions)
        #expect(bundle.currentVersionName == current)
        for name in versions {
            let model = try bundle.model(named: name)
            #expect(!model.isFrozen)
        }
        #expect(try bundle.model(named: current) !== bundle.currentModel(), "every call reads a new model")
    }

    private func bundle(versions: [String], current: String?) throws -> (TemporaryDirectory, URL) {
        let directory = try TemporaryDirectory()
        for name in versions {
            try directory.write(
                ModelXML.file("<entity name=\"E\"/>"), to: "M.xcdatamodeld/\(name).xcdatamodel/contents")
        }
        if let current {
            try directory.write(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                    <key>_XCCurrentVersionName</key>
                    <string>\(current)</string>
                </dict>
                </plist>
                """, to: "M.xcdatamodeld/.xccurrentversion")
        }
        return (directory, directory.url.appendingPathComponent("M.xcdatamodeld"))
    }

    @Test func versionsAreInNumericOrder() throws {
        let (directory, url) = try bundle(versions: ["M 10", "M", "M 2"], current: "M 2.xcdatamodel")
        let versioned = try XcodeVersionedModel(contentsOf: url)
        #expect(versioned.versionNames == ["M", "M 2", "M 10"])
        #expect(versioned.currentVersionName == "M 2")
        #expect(versioned.url(forVersion: "M 10") == url.appendingPathComponent("M 10.xcdatamodel"))
        _ = directory
    }

    @Test func aSingleVersionNeedsNoCurrentVersionFile() throws {
        let (directory, url) = try bundle(versions: ["Only"], current: nil)
        #expect(try XcodeVersionedModel(contentsOf: url).currentVersionName == "Only")
        _ = directory
    }

    @Test func severalVersionsNeedACurrentVersionFile() throws {
        let (directory, url) = try bundle(versions: ["A", "B"], current: nil)
        #expect {
            _ = try XcodeVersionedModel(contentsOf: url)
        } throws: { error in
            let error = error as! ModelError
            return error.code == .unreadableFile && error.message.contains("no '.xccurrentversion'")
        }
        _ = directory
    }

    @Test func aCurrentVersionThatDoesNotExistIsMalformed() throws {
        let (directory, url) = try bundle(versions: ["A"], current: "B.xcdatamodel")
        #expect {
            _ = try XcodeVersionedModel(contentsOf: url)
        } throws: { error in
            let error = error as! ModelError
            return error.code == .malformedFile && error.message.contains("names the current version 'B'")
        }
        _ = directory
    }

    @Test func aCurrentVersionFileThatIsNotAPlistIsMalformed() throws {
        let (directory, url) = try bundle(versions: ["A"], current: nil)
        try directory.write(
            "<?xml version=\"1.0\"?>\n<plist><dict>\n<key>Other</key></dict></plist>",
            to: "M.xcdatamodeld/.xccurrentversion")
        #expect {
            _ = try XcodeVersionedModel(contentsOf: url)
        } throws: { error in
            let error = error as! ModelError
            return error.code == .malformedFile && error.line == 2
                && error.message.contains("no _XCCurrentVersionName key")
        }
        try directory.write("<?xml version=\"1.0\"?>\n<plist><dict>\n<key>", to: "M.xcdatamodeld/.xccurrentversion")
        #expect {
            _ = try XcodeVersionedModel(contentsOf: url)
        } throws: { error in
            (error as! ModelError).code == .malformedFile
        }
    }

    @Test func anUnknownVersionNameIsUnreadable() throws {
        let (directory, url) = try bundle(versions: ["A"], current: "A.xcdatamodel")
        #expect {
            _ = try XcodeVersionedModel(contentsOf: url).model(named: "Z")
        } throws: { error in
            let error = error as! ModelError
            return error.code == .unreadableFile && error.message.contains("no version named 'Z'")
        }
        _ = directory
    }

    @Test func aFolderWithoutVersionsIsUnreadable() throws {
        let directory = try TemporaryDirectory()
        try directory.write("", to: "Empty.xcdatamodeld/readme")
        #expect {
            _ = try XcodeVersionedModel(contentsOf: directory.url.appendingPathComponent("Empty.xcdatamodeld"))
        } throws: { error in
            (error as! ModelError).code == .unreadableFile
        }
    }
}
