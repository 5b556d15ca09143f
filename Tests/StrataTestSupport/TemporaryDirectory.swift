import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory {
    /// The folder.
    public let url: URL

    /// Creates the folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("StrataTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file named `name` in the folder (not created).
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit {
        // Cleanup only: a folder left behind in the temporary directory is harmless.
        try? FileManager.default.removeItem(at: url)
    }
}
