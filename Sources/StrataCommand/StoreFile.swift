import Foundation
import Strata
import StrataPostgres
import StrataStores
import StrataXML
import StrataXcodeModel

/// A store a command works on, a file or a PostgreSQL store: its detected type and metadata,
/// read without opening it.
struct StoreFile {
    let url: URL
    let typeName: String
    let metadata: StoreMetadata
    /// A coordinator knowing every built-in type, for reading the file without opening it.
    let coordinator: PersistentStoreCoordinator

    /// Every store type the tool works with: the built-in file types and PostgreSQL.
    static let storeTypes = StoreType.builtInFileTypes + [.postgres]

    /// Reads the type and metadata of the store at `path`: a file's path, or a PostgreSQL URL.
    init(path: String) throws {
        url = Self.url(of: path)
        coordinator = try PersistentStoreCoordinator(model: ManagedObjectModel(), storeTypes: Self.storeTypes)
        typeName = url.isFileURL ? try coordinator.storeType(ofFileAt: url).name : StoreType.postgres.name
        guard let metadata = try coordinator.metadataForStore(type: typeName, at: url) else {
            throw CommandFailure(description: "There is no \(typeName) store at '\(url.nameInMessages)'.")
        }
        self.metadata = metadata
    }

    /// The store a command-line argument names: a PostgreSQL store for a `postgresql://` or
    /// `postgres://` URL, else the file at that path.
    static func url(of argument: String) -> URL {
        let lowered = argument.lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://"), let url = URL(string: argument) {
            return url
        }
        return URL(fileURLWithPath: argument)
    }

    /// How output names the store: a file by its path, a URL without its password.
    var name: String { url.nameInMessages }

    /// The model the store records: Strata's JSON form, or the compiled model Core Data keeps
    /// in an SQLite store's `Z_MODELCACHE`; `nil` for a store that records neither.
    var recordedModel: ManagedObjectModel? {
        get throws {
            if let json = metadata.modelJSON { return try ManagedObjectModel(jsonData: json) }
            guard typeName == StoreType.sqlite.name, let cache = try SQLiteModelCache.compressedModel(ofStoreAt: url)
            else { return nil }
            return try CompiledModel.load(modelCache: cache, file: url.path)
        }
    }

    /// `model`, else the recorded model; fails when there is neither.
    func model(_ model: ManagedObjectModel?) throws -> ManagedObjectModel {
        if let model { return model }
        guard let recorded = try recordedModel else {
            throw CommandFailure(
                description: "The \(typeName) store at '\(name)' does not record its model; pass one with --model.")
        }
        return recorded
    }

    /// A coordinator for `model` knowing every built-in type (XML names matched against `model`),
    /// whose transformable attributes keep their stored data: the tool works without the
    /// application's transformers.
    static func coordinator(for model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
        var transformers = ValueTransformerRegistry()
        transformers.registerStoredDataTransformers(for: model)
        return try PersistentStoreCoordinator(
            model: model, storeTypes: storeTypes + [StoreType.xml(model: model)],
            valueTransformers: transformers)
    }

    /// Opens the store read-only with `model` (or its recorded model) in a new coordinator.
    func open(model: ManagedObjectModel?) throws -> any IncrementalStore {
        try open(in: Self.coordinator(for: try self.model(model)))
    }

    /// Opens the store read-only, for the configuration whose entities it records, reading its
    /// history when `tracksPersistentHistory` is set, and adds it to `coordinator`.
    func open(in coordinator: PersistentStoreCoordinator, tracksPersistentHistory: Bool = false) throws
        -> any IncrementalStore
    {
        var description = PersistentStoreDescription(
            type: typeName, url: url, configuration: configuration(in: coordinator.model))
        description.isReadOnly = true
        description.tracksPersistentHistory = tracksPersistentHistory
        // The tool is how a file is examined: an LMDB file is checked whole, whatever its record says.
        description.settings["verification"] = "always"
        return try coordinator.addStore(description)
    }

    /// The configuration of `model` holding exactly the entities the store records; `nil` when
    /// the store holds every entity or no configuration matches.
    func configuration(in model: ManagedObjectModel) -> String? {
        let recorded = Set(metadata.versionHashes.keys)
        guard recorded != Set(model.entityNames(inConfiguration: nil)) else { return nil }
        return model.configurations.keys.sorted().first { Set(model.entityNames(inConfiguration: $0)) == recorded }
    }
}
