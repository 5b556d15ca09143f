import Foundation
import StrataTestSupport
import Testing

/// A process that gives up root after starting from a folder only root may enter (a clone in a
/// home folder of mode 0700, or a `mktemp -d` folder) still saves: Foundation traps making
/// `Bundle.main` there, so history records no bundle identifier instead of asking it.
@Suite struct UnreachableExecutableFolderTests {
    @Test func aWorkerStartedFromAFolderOthersCannotEnterSavesAsNobody() throws {
        let hidden = try TemporaryDirectory()
        let bin = hidden.file("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let worker = bin.appendingPathComponent("SQLiteStoreConformanceWorker")
        try FileManager.default.copyItem(at: BuiltProducts.executable("SQLiteStoreConformanceWorker"), to: worker)
        #expect(chmod(hidden.url.path, 0o700) == 0)
        let stores = try TemporaryDirectory()
        let process = Process()
        process.executableURL = worker
        process.arguments = ["readonly", stores.file("store.sqlite").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let termination = process.waitForTermination()
        chmod(stores.url.path, 0o755)
        #expect(!termination.wasSignalled && termination.status == 0, "\(lines)")
        #expect(lines.contains("ready 3") && lines.contains("closed"), "\(lines)")
        #expect(!lines.contains("setup "), "\(lines)")
    }
}
