import Foundation
import Logging
import Strata

/// A compiled versioned model: a `.momd` folder holding one `.mom` file per version and a
/// `VersionInfo.plist` naming the current one.
///
/// ```swift
/// let bundle = try CompiledVersionedModel(contentsOf: URL(fileURLWithPath: "Model.momd"))
/// for name in bundle.versionNames {
///     let model = try bundle.model(named: name)
///     …
/// }
/// let current = try bundle.currentModel()
/// ```
///
/// A version's name is its file name without `.mom` (`"Model 2"`), as in the model's source
/// `.xcdatamodeld` (see ``XcodeVersionedModel``). Each call to ``model(named:)`` reads the
/// version's file again and returns a new, unfrozen model; see ``CompiledModel`` for what is
/// read. The optimized `.omo` file Xcode may add for the current version is not read.
public struct CompiledVersionedModel: Sendable {
    /// The `.momd` folder.
    public let url: URL
    /// The name of every version, in numeric order (`Model`, `Model 2`, …, `Model 10`).
    public let versionNames: [String]
    /// The name `VersionInfo.plist` gives as current (`NSManagedObjectModel_CurrentVersionName`);
    /// the only version when the folder has one version and no `VersionInfo.plist`.
    public let currentVersionName: String
    /// The entity version hashes `VersionInfo.plist` lists (`NSManagedObjectModel_VersionHashes`):
    /// for each version name, each entity's 32-byte hash by entity name. Empty when the folder has
    /// no `VersionInfo.plist` or the file lists no hashes.
    public let versionHashes: [String: [String: [UInt8]]]
    private let logger: Logger

    /// Lists the versions in the `.momd` folder at `url` and reads its `VersionInfo.plist`, an XML
    /// or binary property list.
    ///
    /// - Parameters:
    ///   - url: The `.momd` folder.
    ///   - logger: receives `.debug` messages about the parts of compiled models that were skipped.
    /// - Throws: `ModelError` with code `ModelError/Code/unreadableFile` when the folder cannot be
    ///   listed, holds no `.mom` file, or lacks `VersionInfo.plist` while holding several;
    ///   `ModelError/Code/malformedFile` when `VersionInfo.plist` is not the expected property
    ///   list, lacks the current version's name while there are several versions, or names a
    ///   version that does not exist.
    public init(contentsOf url: URL, logger: Logger = XcodeModel.defaultLogger) throws(ModelError) {
        let names = try Self.versionNames(
            in: url, suffix: ".mom", folderKind: "compiled versioned model",
            emptyMessage: "'\(url.path)' holds no compiled model version ('.mom' file).")
        let infoURL = url.appendingPathComponent("VersionInfo.plist")
        var current: String?
        var hashes: [String: [String: [UInt8]]] = [:]
        if FileManager.default.fileExists(atPath: infoURL.path) {
            (current, hashes) = try Self.versionInfo(at: infoURL)
        } else if names.count > 1 {
            throw ModelError(
                code: .unreadableFile,
                message:
                    "'\(url.path)' has \(names.count) versions but no 'VersionInfo.plist' saying which is current.",
                filePath: url.path)
        }
        let currentName: String
        if let current {
            guard names.contains(current) else {
                throw ModelError(
                    code: .malformedFile,
                    message: "'\(infoURL.path)' names the current version '\(current)', but '\(url.path)' has only: "
                        + "\(names.joined(separator: ", ")).",
                    filePath: infoURL.path)
            }
            currentName = current
        } else if names.count == 1 {
            currentName = names[0]
        } else {
            throw ModelError(
                code: .malformedFile,
                message: "'\(infoURL.path)' does not name the current version "
                    + "(NSManagedObjectModel_CurrentVersionName), and '\(url.path)' has \(names.count) versions.",
                filePath: infoURL.path)
        }
        self.url = url
        self.versionNames = names
        self.currentVersionName = currentName
        self.versionHashes = hashes
        self.logger = logger
    }

    /// The `.mom` file of the version named `name`.
    public func url(forVersion name: String) -> URL {
        url.appendingPathComponent(name + ".mom", isDirectory: false)
    }

    /// Reads the version named `name`.
    ///
    /// - Returns: a new, unfrozen model.
    /// - Throws: `ModelError` as ``CompiledModel/load(contentsOf:logger:)`` does, naming the
    ///   version's `.mom` file, and `ModelError/Code/unreadableFile`, naming the folder, when there
    ///   is no version named `name`.
    public func model(named name: String) throws(ModelError) -> ManagedObjectModel {
        guard versionNames.contains(name) else {
            throw ModelError(
                code: .unreadableFile,
                message: "'\(url.path)' has no version named '\(name)'; its versions are: "
                    + "\(versionNames.joined(separator: ", ")).",
                filePath: url.path)
        }
        return try CompiledModel.load(contentsOf: url(forVersion: name), logger: logger)
    }

    /// Reads the current version (``currentVersionName``).
    ///
    /// - Returns: a new, unfrozen model.
    /// - Throws: `ModelError` as ``CompiledModel/load(contentsOf:logger:)`` does.
    public func currentModel() throws(ModelError) -> ManagedObjectModel {
        try model(named: currentVersionName)
    }

    /// The current version's name and the version hashes in the `VersionInfo.plist` at `url`: a
    /// dictionary whose `NSManagedObjectModel_CurrentVersionName` is a string and whose
    /// `NSManagedObjectModel_VersionHashes` maps version names to dictionaries of data by entity
    /// name. A `.mom` suffix on the current name is removed. Other keys (such as
    /// `NSManagedObjectModel_VersionChecksums`) are not read.
    ///
    /// - Throws: `ModelError/Code/unreadableFile` when the file cannot be read,
    ///   `ModelError/Code/malformedFile` when it is not such a property list.
    static func versionInfo(at url: URL) throws(ModelError) -> (String?, [String: [String: [UInt8]]]) {
        func malformed(_ reason: String) -> ModelError {
            ModelError(code: .malformedFile, message: "'\(url.path)': \(reason)", filePath: url.path)
        }
        let data = try ModelFileContents.read(url)
        let propertyList: Any
        do {
            propertyList = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ModelError(
                code: .malformedFile,
                message: "'\(url.path)' is not a property list: \(error.localizedDescription)", filePath: url.path,
                underlying: error)
        }
        guard let info = propertyList as? [String: Any] else {
            throw malformed("the property list is not a dictionary.")
        }
        var current: String?
        if let value = info["NSManagedObjectModel_CurrentVersionName"] {
            guard let name = value as? String else {
                throw malformed("NSManagedObjectModel_CurrentVersionName is not a string.")
            }
            current = name.hasSuffix(".mom") ? String(name.dropLast(".mom".count)) : name
        }
        var hashes: [String: [String: [UInt8]]] = [:]
        if let value = info["NSManagedObjectModel_VersionHashes"] {
            guard let versions = value as? [String: Any] else {
                throw malformed("NSManagedObjectModel_VersionHashes is not a dictionary.")
            }
            for (version, entities) in versions {
                guard let entityHashes = entities as? [String: Any] else {
                    throw malformed("the version hashes of '\(version)' are not a dictionary.")
                }
                var converted: [String: [UInt8]] = [:]
                for (entity, hash) in entityHashes {
                    guard let bytes = hash as? Data else {
                        throw malformed("the version hash of entity '\(entity)' in '\(version)' is not data.")
                    }
                    converted[entity] = Array(bytes)
                }
                hashes[version] = converted
            }
        }
        return (current, hashes)
    }
}
