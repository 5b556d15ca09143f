import Foundation
import Logging
import Strata

/// A versioned Xcode model: a `.xcdatamodeld` folder holding one `.xcdatamodel` folder per
/// version and a `.xccurrentversion` file naming the current one.
///
/// ```swift
/// let bundle = try XcodeVersionedModel(contentsOf: URL(fileURLWithPath: "Model.xcdatamodeld"))
/// for name in bundle.versionNames {
///     let model = try bundle.model(named: name)
///     …
/// }
/// let current = try bundle.currentModel()
/// ```
///
/// A version's name is its folder name without `.xcdatamodel` (`"Model 2"`), as in compiled
/// models. Each call to ``model(named:)`` reads the version's file again and returns a new,
/// unfrozen model; see ``XcodeModel`` for what is read.
public struct XcodeVersionedModel: Sendable {
    /// The `.xcdatamodeld` folder.
    public let url: URL
    /// The name of every version, in numeric order (`Model`, `Model 2`, …, `Model 10`).
    public let versionNames: [String]
    /// The name of the version `.xccurrentversion` marks as current; the only version when
    /// the folder has one version and no `.xccurrentversion`.
    public let currentVersionName: String
    private let logger: Logger

    /// Lists the versions in the `.xcdatamodeld` folder at `url` and reads `.xccurrentversion`.
    ///
    /// - Parameters:
    ///   - url: The `.xcdatamodeld` folder.
    ///   - logger: receives `.debug` messages about the parts of model files that were skipped.
    /// - Throws: `ModelError` with code `ModelError/Code/unreadableFile` when the folder
    ///   cannot be listed, holds no version, or lacks `.xccurrentversion` while holding several;
    ///   `ModelError/Code/malformedFile` when `.xccurrentversion` is not the expected property
    ///   list or names a version that does not exist.
    public init(contentsOf url: URL, logger: Logger = XcodeModel.defaultLogger) throws(ModelError) {
        let names = try Self.versionNames(
            in: url, suffix: ".xcdatamodel", folderKind: "versioned model",
            emptyMessage: "'\(url.path)' holds no '.xcdatamodel' version.")
        let marker = url.appendingPathComponent(".xccurrentversion")
        let current: String
        if FileManager.default.fileExists(atPath: marker.path) {
            current = try Self.currentVersionName(in: marker)
            guard names.contains(current) else {
                throw ModelError(
                    code: .malformedFile,
                    message:
                        "'\(marker.path)' names the current version '\(current)', but '\(url.path)' has only: \(names.joined(separator: ", ")).",
                    filePath: marker.path)
            }
        } else if names.count == 1 {
            current = names[0]
        } else {
            throw ModelError(
                code: .unreadableFile,
                message:
                    "'\(url.path)' has \(names.count) versions but no '.xccurrentversion' file saying which is current.",
                filePath: url.path)
        }
        self.url = url
        self.versionNames = names
        self.currentVersionName = current
        self.logger = logger
    }

    /// The folder of the version named `name`.
    public func url(forVersion name: String) -> URL {
        url.appendingPathComponent(name + ".xcdatamodel", isDirectory: true)
    }

    /// Reads the version named `name`.
    ///
    /// - Returns: a new, unfrozen model.
    /// - Throws: `ModelError` as ``XcodeModel/load(contentsOf:logger:)`` does, and
    ///   `ModelError/Code/unreadableFile` when there is no version named `name`.
    public func model(named name: String) throws(ModelError) -> ManagedObjectModel {
        guard versionNames.contains(name) else {
            throw ModelError(
                code: .unreadableFile,
                message:
                    "'\(url.path)' has no version named '\(name)'; its versions are: \(versionNames.joined(separator: ", ")).",
                filePath: url.path)
        }
        return try XcodeModel.load(contentsOf: url(forVersion: name), logger: logger)
    }

    /// Reads the current version (``currentVersionName``).
    ///
    /// - Returns: a new, unfrozen model.
    /// - Throws: `ModelError` as ``XcodeModel/load(contentsOf:logger:)`` does.
    public func currentModel() throws(ModelError) -> ManagedObjectModel {
        try model(named: currentVersionName)
    }
}
