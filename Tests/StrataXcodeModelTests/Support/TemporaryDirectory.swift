import Foundation

/// A new, empty directory, removed with everything in it when the value is dropped.
final class TemporaryDirectory {
    /// The directory.
    let url: URL

    /// Creates the directory under the system's temporary folder.
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-xcodemodel-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Cleanup only: a leftover temporary folder does not affect any test.
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` as UTF-8 to `relativePath` inside the directory, creating folders as needed.
    @discardableResult
    func write(_ text: String, to relativePath: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Copies the fixture store at `relativePath` together with its `-wal` and `-shm` files, if
    /// any, and returns the copy's URL.
    func copyStore(_ relativePath: String) throws -> URL {
        let source = FixturePaths.url(relativePath)
        let copy = url.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let file = URL(fileURLWithPath: source.path + suffix)
            if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.copyItem(at: file, to: URL(fileURLWithPath: copy.path + suffix))
            }
        }
        return copy
    }
}
