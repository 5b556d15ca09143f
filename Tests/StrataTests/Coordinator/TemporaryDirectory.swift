import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    /// The folder.
    let url: URL

    /// Creates the folder.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("StrataTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file named `name` in the folder (not created).
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit {
        // Cleanup only: a folder left behind in the temporary directory is harmless.
        try? FileManager.default.removeItem(at: url)
    }
}
