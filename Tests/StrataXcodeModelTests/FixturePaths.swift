import Foundation

/// Locates the Apple-made fixtures copied into `Tests/Fixtures` (see its SOURCES.md).
enum FixturePaths {
    /// `Tests/Fixtures/coredata`.
    static let coreData = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/coredata")
}
