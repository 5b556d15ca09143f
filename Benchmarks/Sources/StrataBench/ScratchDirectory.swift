import Foundation

/// A folder under the system's temporary folder for one subject's files, removed by ``remove()``.
struct ScratchDirectory: Sendable {
    /// The folder of this run's scratch folders.
    static let root = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-\(getpid())")

    let url: URL

    /// Removes every scratch folder of this run.
    static func removeRoot() { try? FileManager.default.removeItem(at: root) }

    init(_ name: String) throws {
        url = Self.root.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A new, empty folder `name` inside this one, replacing any earlier one.
    func fresh(_ name: String) throws -> URL {
        let folder = url.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A copy of the folder `source` as `name`, replacing any earlier one.
    func copy(_ source: URL, as name: String) throws -> URL {
        let folder = url.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.copyItem(at: source, to: folder)
        return folder
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
