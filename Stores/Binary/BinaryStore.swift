import Foundation
@_spi(StoreAuthoring) import Strata

/// Strata's own compact whole-file store: the metadata and every object in one binary file,
/// loaded at once and written at once, with checksums that find any damage. The core's adapter
/// keeps the objects in memory and answers fetches; each save writes a new file and renames it
/// over the old one (`AtomicFileReplacement`), so a crash leaves the old file or the new one.
///
/// Opened through ``Strata/StoreType/binary``:
///
/// ```swift
/// let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.binary])
/// try coordinator.addStore(.binary(at: url))
/// ```
///
/// A file that is damaged, cut short, or of another kind is `StoreError/Code/corrupt`, and a
/// file of a newer format version `StoreError/Code/unsupported`; either way the file is left as
/// it is. A zero-length file is a new store.
package struct BinaryStore: AtomicStore {
    /// The store type's name.
    static let typeName = "Binary"

    /// The store's file.
    public let fileURL: URL

    /// A store kept in the file at `fileURL`.
    package init(fileURL: URL) {
        self.fileURL = fileURL
    }

    public var typeName: String { Self.typeName }
    public var url: URL? { fileURL }
    public var capabilities: StoreCapabilities { [.crossStoreRelationships] }

    public func load() throws -> AtomicStoreContents? { try load(slotsOf: nil) }

    /// Reads the file as ``load()`` does, holding each record's values by the slots of its
    /// entity in `schema` when they are exactly that entity's persistent values.
    public func load(slotsOf schema: ModelSchema) throws -> AtomicStoreContents? {
        try load(slotsOf: Optional(schema))
    }

    private func load(slotsOf schema: ModelSchema?) throws -> AtomicStoreContents? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isFolder) else { return nil }
        guard !isFolder.boolValue else {
            throw StoreError(code: .corrupt, message: "'\(fileURL.path)' is a folder, not a binary store file.")
        }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw StoreError(
                code: .io, message: "Could not read the binary store at '\(fileURL.path)'.", underlying: error)
        }
        // A zero-length file is a store that was never saved, as an empty SQLite file is.
        guard !data.isEmpty else { return nil }
        return try BinaryStoreDecoder(bytes: [UInt8](data), source: "'\(fileURL.path)'").contents(slotsOf: schema)
    }

    public func write(_ contents: AtomicStoreContents) throws {
        try AtomicFileReplacement.replace(fileURL, storeName: typeName, contents: BinaryStoreEncoder.encode(contents))
    }
}

extension StoreType {
    /// Strata's binary store type: the metadata and every object in one checksummed file,
    /// read and written whole. A file is recognised by its eight magic bytes.
    public static let binary = StoreType.atomic(
        name: BinaryStore.typeName, recognize: { $0.starts(with: BinaryStoreFormat.magic) },
        describeFormat: { url in "Strata's binary store version \(try BinaryStore.formatVersion(ofStoreAt: url))" },
        makeStore: { url in
            guard let url else {
                throw StoreError(code: .unsupported, message: "A \(BinaryStore.typeName) store needs a file URL.")
            }
            return BinaryStore(fileURL: url)
        })
}

extension PersistentStoreDescription {
    /// A description of a binary store at `url` holding `configuration`.
    public static func binary(at url: URL, configuration: String? = nil) -> PersistentStoreDescription {
        PersistentStoreDescription(storeType: .binary, url: url, configuration: configuration)
    }
}
