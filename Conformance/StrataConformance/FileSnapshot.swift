import Foundation

/// The bytes of a file (or the listing of a folder) and the names beside it, to compare
/// after a bad file was opened.
struct FileSnapshot {
    let url: URL
    let folder: URL
    let bytes: Data?
    let neighbours: [String]

    /// Records the file or folder at `url` and the names in `folder`, which holds it.
    init(of url: URL, in folder: URL) throws {
        self.url = url
        self.folder = folder
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        bytes = isFolder.boolValue ? nil : try Data(contentsOf: url)
        neighbours = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Fails the check unless the file holds the same bytes and the folder the same names, but
    /// for side files named by `allowedSuffixes` after the file's name (the side files a store
    /// documents, which an opening that succeeded may make).
    func expectUnchanged(_ what: String, allowingSideFiles allowedSuffixes: [String] = []) throws {
        let allowed = Set(allowedSuffixes.map { url.lastPathComponent + $0 })
        try expectEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                !allowed.contains($0) || neighbours.contains($0)
            }.sorted(), neighbours, "The files beside \(what) after opening it")
        guard let bytes else { return }
        let after = try Data(contentsOf: url)
        guard after != bytes else { return }
        let offset = zip(after, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        throw CheckFailure(
            "Opening \(what) changed the file: it had \(bytes.count) bytes and has \(after.count)"
                + (offset.map { ", first different at offset \($0)" } ?? "") + ".")
    }
}
