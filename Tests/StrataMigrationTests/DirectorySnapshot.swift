import Foundation

/// Every file in a folder with its bytes: what a failed migration must leave exactly as it
/// was.
///
/// An LMDB `-lock` file is left out: it is LMDB's table of live readers, which every reader
/// of the store writes to, and holds none of the store's contents.
struct DirectorySnapshot: Equatable {
    let files: [String: Data]

    init(_ directory: URL) throws {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasSuffix("-lock") {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        self.files = files
    }
}
