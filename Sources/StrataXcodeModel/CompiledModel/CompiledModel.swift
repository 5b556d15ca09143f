import Foundation
import Logging
import Strata

/// Reads compiled Core Data models: a `.mom` file, or the archived model inside one.
///
/// Xcode compiles each version of a model into a `.mom` file, an NSKeyedArchiver archive of
/// an `NSManagedObjectModel`, and a versioned model into a `.momd` folder of them (see
/// ``CompiledVersionedModel``). A SQLite store keeps the same kind of archive, compressed, in its
/// `Z_MODELCACHE` table; once inflated it is read by ``load(archive:file:logger:)``.
///
/// ```swift
/// let model = try CompiledModel.load(contentsOf: URL(fileURLWithPath: "Model.momd/Model 2.mom"))
/// try model.freeze()
/// let hashes = model.schema.entityVersionHashes   // equal to those of the model's source
/// ```
///
/// The returned model is new and *not* frozen. As for a model read by ``XcodeModel``, the reader
/// checks what it reads, and references between entities are checked by
/// `ManagedObjectModel/freeze()`. The archive keeps entities and properties in dictionaries;
/// they come out sorted by name, as Xcode writes them in a model file. The archive stores a
/// renaming identifier for every entity and property, its name when none was set; one equal to
/// the name reads as `nil`, as in the model file. A store's model cache repeats inherited
/// properties in every subentity; they are read once, in the entity that declares them.
///
/// Skipped and logged at `.debug`, once per kind and file: the archive fields Strata has no use
/// for (attribute value class names, Spotlight and CloudKit flags, fetch options, …), validation
/// predicates other than value and length bounds and regular expressions, default values of
/// classes Strata has no value for, and fetched properties, fetch request templates and fetch
/// indexes whose predicate Strata cannot express.
///
/// Composite attributes read their elements from `NSCompositeElements`.
///
/// Not read: derived attributes whose expression Strata cannot express
/// (loading fails with `ModelError/Code/unsupportedFormat`: dropping them would change the
/// version hashes), and the optimized `.omo` files that sit next to `.mom` files.
public enum CompiledModel {
    /// Reads the model an SQLite store Core Data wrote keeps in its `Z_MODELCACHE` table: the
    /// archive ``load(archive:file:logger:)`` reads, compressed as raw DEFLATE. `file` names it
    /// in errors (the store's path, say).
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when the data does not
    ///   inflate; otherwise as ``load(archive:file:logger:)``.
    public static func load(modelCache data: Data, file: String, logger: Logger = XcodeModel.defaultLogger)
        throws(ModelError) -> ManagedObjectModel
    {
        let location = "\(file) (Z_MODELCACHE)"
        return try load(archive: try RawDeflate.inflate(data, file: location), file: location, logger: logger)
    }

    /// Reads the `.mom` file at `url`; the model is new and unfrozen.
    ///
    /// A `.momd` folder is read as ``CompiledVersionedModel`` reads it, and its current version
    /// is returned.
    ///
    /// - Parameters:
    ///   - url: a file URL.
    ///   - logger: receives `.debug` messages about the parts of the archive that were skipped.
    /// - Returns: a new, unfrozen model.
    /// - Throws: `ModelError` with code `ModelError/Code/unreadableFile` when nothing can be read
    ///   at `url`; otherwise as ``load(archive:file:logger:)``, with `url`'s path as the file.
    public static func load(contentsOf url: URL, logger: Logger = XcodeModel.defaultLogger) throws(ModelError)
        -> ManagedObjectModel
    {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw ModelError(
                code: .unreadableFile,
                message: "There is no compiled model at '\(url.path)': the path does not exist.", filePath: url.path)
        }
        if isFolder.boolValue {
            return try CompiledVersionedModel(contentsOf: url, logger: logger).currentModel()
        }
        let data = try ModelFileContents.read(url)
        return try load(archive: data, file: url.path, logger: logger)
    }

    /// Reads an archived NSManagedObjectModel (the bytes of a `.mom`, or of a store's model
    /// cache); `file` names it in errors.
    ///
    /// - Parameters:
    ///   - data: an NSKeyedArchiver archive (a binary property list) whose root object is an
    ///     `NSManagedObjectModel`.
    ///   - file: the name or path of the file `data` comes from, for messages.
    ///   - logger: receives `.debug` messages about the parts of the archive that were skipped.
    /// - Returns: a new, unfrozen model.
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` (naming `file`, and the
    ///   object and field at fault) when `data` is not a keyed archive, its root is not a model,
    ///   or a field is missing or of the wrong kind; `ModelError/Code/unsupportedFormat` for an
    ///   attribute type Strata does not know, or a derived attribute whose
    ///   expression Strata cannot express.
    public static func load(archive data: Data, file: String, logger: Logger = XcodeModel.defaultLogger)
        throws(ModelError) -> ManagedObjectModel
    {
        let archive = try KeyedArchive(data: data, file: file)
        var reader = CompiledModelReader(archive: archive)
        let model = try reader.model()
        reader.skipped.log(to: logger, file: file)
        return model
    }
}
