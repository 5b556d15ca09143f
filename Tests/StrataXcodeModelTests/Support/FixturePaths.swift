import Foundation

/// Locates the Apple-made fixtures copied into `Tests/Fixtures` (see its SOURCES.md).
///
/// Fixtures are never modified: stores are copied to a ``TemporaryDirectory`` before SQLite
/// opens them.
enum FixturePaths {
    /// `Tests/Fixtures/coredata`.
    static let coreData = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/coredata")

    /// The fixture at `relativePath` below `Tests/Fixtures/coredata`.
    static func url(_ relativePath: String) -> URL {
        coreData.appendingPathComponent(relativePath)
    }

    /// The path of every file below `Tests/Fixtures/coredata` whose name satisfies `include`,
    /// relative to that folder and sorted.
    static func files(where include: (String) -> Bool) -> [String] {
        let root = coreData.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(atPath: root)
        var result: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if include((relative as NSString).lastPathComponent) { result.append(relative) }
        }
        return result.sorted()
    }

    /// Every Xcode model `contents` file in the fixtures.
    static var modelContentsFiles: [String] { files { $0 == "contents" } }

    /// Every SQLite store in the fixtures.
    static var stores: [String] { files { $0.hasSuffix(".sqlite") } }
}
