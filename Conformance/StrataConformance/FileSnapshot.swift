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

    /// Fails the check unless the file holds the same bytes and the folder the same names.
    func expectUnchanged(_ what: String) throws {
        try expectEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), neighbours,
            "The files beside \(what) after opening it")
        guard let bytes else { return }
        let after = try Data(contentsOf: url)
        guard after != bytes else { return }
        let offset = zip(after, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        throw CheckFailure(
            "Opening \(what) changed the file: it had \(bytes.count) bytes and has \(after.count)"
                + (offset.map { ", first different at offset \($0)" } ?? "") + ".")
    }
}
