import Foundation
import Strata
import StrataXcodeModel
import Testing

@Suite struct XcodeModelTests {
    static let bundle = FixturePaths.url(
        "alemar11-CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld")

    @Test func aFolderItsContentsFileAndTheVersionedBundleAllLoad() throws {
        let folder = Self.bundle.appendingPathComponent("SampleModel3.xcdatamodel")
        let fromFolder = try XcodeModel.load(contentsOf: folder)
        let fromFile = try XcodeModel.load(contentsOf: folder.appendingPathComponent("contents"))
        let fromBundle = try XcodeModel.load(contentsOf: Self.bundle)
        #expect(fromFolder.entities == fromFile.entities)
        #expect(fromBundle.entities == fromFile.entities, "a .xcdatamodeld loads its current version")
        #expect(fromFolder !== fromFile)
    }

    @Test func aMissingPathIsUnreadable() throws {
        let path = try TemporaryDirectory().url.appendingPathComponent("Nothing.xcdatamodel").path
        #expect {
            _ = try XcodeModel.load(contentsOf: URL(fileURLWithPath: path))
        } throws: { error in
            let error = error as! ModelError
            return error.code == .unreadableFile && error.filePath == path && error.message.contains(path)
        }
    }

    @Test func aFolderWithoutContentsIsUnreadable() throws {
        let directory = try TemporaryDirectory()
        try directory.write("", to: "Empty.xcdatamodel/layout")
        let folder = directory.url.appendingPathComponent("Empty.xcdatamodel")
        #expect {
            _ = try XcodeModel.load(contentsOf: folder)
        } throws: { error in
            let error = error as! ModelError
            return error.code == .unreadableFile && error.message.contains("without a model 'contents' file")
        }
    }

    #if os(Linux)
        /// `/proc/self/mem` exists but cannot be read from offset 0: `read` fails with `EIO`.
        @Test func aFileThatCannotBeReadIsUnreadable() throws {
            let url = URL(fileURLWithPath: "/proc/self/mem")
            #expect {
                _ = try XcodeModel.load(contentsOf: url)
            } throws: { error in
                let error = error as! ModelError
                return error.code == .unreadableFile && error.filePath == url.path && error.underlying != nil
            }
        }
    #endif
}
