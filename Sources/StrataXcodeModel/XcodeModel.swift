import Foundation
import Logging
import Strata

/// Reads the models Xcode's model editor writes: a `.xcdatamodel` folder (or the `contents`
/// file inside it) and a versioned `.xcdatamodeld` folder.
///
/// ```swift
/// let model = try XcodeModel.load(contentsOf: URL(fileURLWithPath: "Model.xcdatamodeld"))
/// model.entities.append(EntityDescription(name: "Note"))  // still editable
/// try model.freeze()
/// let hashes = model.schema.entityVersionHashes            // equal to Core Data's
/// ```
///
/// The returned model is *not* frozen. Its syntax has been checked, but references between
/// entities (superentity, relationship destinations and inverses, constraint, index and
/// configuration names) are checked only by `ManagedObjectModel/validationIssues()` and
/// `ManagedObjectModel/freeze()`, as for a model built in code: a file that names a missing
/// entity loads, and freezing it reports the problem. Everything Strata does not use (diagram
/// layout, code-generation settings, `syncable`, …) is skipped and logged at `.debug`, once
/// per kind and file.
///
/// A model Xcode 3 saved (binary `elements` and `layout` files instead of `contents`) is read
/// too: its entities, attributes and relationships; one with inheritance, fetch request
/// templates, fetched properties or configurations fails with
/// `ModelError/Code/unsupportedFormat`.
///
/// `Composite` attributes take their elements from the model-level `<composite>` they name.
///
/// Not read: fetch indexes over expressions (skipped and logged).
public enum XcodeModel {
    /// The logger used when the caller passes none: labelled `strata.xcodemodel`, discarding
    /// every message.
    public static var defaultLogger: Logger {
        Logger(label: "strata.xcodemodel", factory: { _ in SwiftLogNoOpLogHandler() })
    }

    /// Reads the model at `url`: a `.xcdatamodel` folder, its `contents` file (or any file of
    /// the same XML format), or a `.xcdatamodeld` folder, whose current version is read.
    ///
    /// - Parameters:
    ///   - url: a file URL.
    ///   - logger: receives `.debug` messages about the parts of the file that were skipped.
    /// - Returns: a new, unfrozen model.
    /// - Throws: `ModelError` with code `ModelError/Code/unreadableFile` when nothing can
    ///   be read at `url`, `ModelError/Code/unsupportedFormat` for what Strata does not read of
    ///   an Xcode 3 model, and `ModelError/Code/malformedFile` (with `ModelError/filePath`
    ///   and `ModelError/line`) for XML that is not well-formed or not a model.
    public static func load(contentsOf url: URL, logger: Logger = defaultLogger) throws(ModelError)
        -> ManagedObjectModel
    {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw ModelError(
                code: .unreadableFile, message: "There is no model at '\(url.path)': the path does not exist.",
                filePath: url.path)
        }
        guard isFolder.boolValue else { return try loadFile(at: url, logger: logger) }
        if url.pathExtension == "xcdatamodeld" {
            return try XcodeVersionedModel(contentsOf: url, logger: logger).currentModel()
        }
        let contents = url.appendingPathComponent("contents")
        if FileManager.default.fileExists(atPath: contents.path) { return try loadFile(at: contents, logger: logger) }
        let elements = url.appendingPathComponent("elements")
        if FileManager.default.fileExists(atPath: elements.path) {
            return try Xcode3ModelReader(contentsOf: elements).model()
        }
        throw ModelError(
            code: .unreadableFile, message: "'\(url.path)' is a folder without a model 'contents' file.",
            filePath: url.path)
    }

    /// Parses one model XML file.
    static func loadFile(at url: URL, logger: Logger) throws(ModelError) -> ManagedObjectModel {
        let root = try readXML(at: url)
        var reader = ModelFileReader(path: url.path)
        let model = try reader.model(from: root)
        reader.ignored.log(to: logger, path: url.path)
        return model
    }

    /// The root element of the XML file at `url`.
    static func readXML(at url: URL) throws(ModelError) -> SourceElement {
        let data = try ModelFileContents.read(url)
        return try ParsedXMLDocument(data: data, path: url.path).rootElement()
    }
}
