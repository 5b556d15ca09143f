import Foundation
@_spi(StoreAuthoring) import Strata

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Core Data's XML store format as a whole-file `AtomicStore`: one human-readable document
/// that Core Data's XML store opens, and that opens stores Core Data wrote (see `docs/XML.md`).
///
/// The file is read and written as a stream through libxml2's `xmlTextReader` and
/// `xmlTextWriter`, never as a tree of the whole document. Saves replace the file atomically
/// with `AtomicFileReplacement`. A missing or empty file is a new store; a damaged or foreign
/// file is `StoreError/Code/corrupt` naming the file, line and column; a file of a newer
/// format version is `StoreError/Code/unsupported`. A file that cannot be read is left as it is.
/// Opened through ``Strata/StoreType/xml``.
package struct XMLStore: AtomicStore {
    /// The name XML stores are registered under.
    static let typeName = "XML"

    /// The store type's name, `"XML"` unless given.
    public let typeName: String
    /// The store's file.
    public let fileURL: URL
    /// The model the file's names are matched against when the file does not record one in
    /// its metadata (every file Strata writes does; Core Data's do not).
    public let model: ManagedObjectModel?

    /// The store's file.
    public var url: URL? { fileURL }
    /// None beyond every store's obligations: one process opens the file at a time.
    public var capabilities: StoreCapabilities { [.crossStoreRelationships] }

    /// A store whose file is at `fileURL`.
    ///
    /// - Parameters:
    ///   - fileURL: The store's file.
    ///   - model: The model to resolve the file's names against when the file records none;
    ///     needed for files Core Data wrote.
    ///   - typeName: The store type's name.
    package init(fileURL: URL, model: ManagedObjectModel? = nil, typeName: String = XMLStore.typeName) {
        self.fileURL = fileURL
        self.model = model
        self.typeName = typeName
    }

    /// Reads the whole file; `nil` when there is none or it is empty.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/io` when the file cannot be opened,
    ///   `StoreError/Code/corrupt` naming the position when it is not a sound XML store, and
    ///   `StoreError/Code/unsupported` when it is of a newer format version.
    public func load() throws -> AtomicStoreContents? {
        try Self.reading(fileURL) { try XMLStoreReader(typeName: typeName, model: model).read($0) }
    }

    /// Reads the whole file as ``load()`` does, holding each object's values by the slots of
    /// its entity in `schema` where they are exactly that entity's persistent values.
    public func load(slotsOf schema: ModelSchema) throws -> AtomicStoreContents? {
        try Self.reading(fileURL) {
            try XMLStoreReader(typeName: typeName, model: model, slotSchema: schema).read($0)
        }
    }

    /// Runs `body` with a reader at the start of the file at `url`; `nil` when there is no
    /// file or it is empty.
    static func reading<T>(_ url: URL, _ body: (XMLTextReader) throws -> T) throws -> T? {
        let path = url.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard !isFolder.boolValue else {
            throw StoreError(code: .io, message: "'\(path)' is a folder, not an XML store file.")
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw StoreError(
                code: .io, message: "Could not open the XML store '\(path)': \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw StoreError(code: .io, message: "Could not read the size of the XML store '\(path)'.")
        }
        // A zero-length file is a store that was never saved, as an empty SQLite file is.
        guard status.st_size > 0 else { return nil }
        return try body(XMLTextReader(descriptor: descriptor, path: path))
    }

    /// Replaces the file with `contents`, atomically (see `AtomicFileReplacement`).
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/io` when writing fails (the old file
    ///   stays), `StoreError/Code/unsupported` when the model has names that differ only in case.
    public func write(_ contents: AtomicStoreContents) throws {
        let writer = XMLStoreWriter(
            names: try XMLStoreNames(metadata: contents.metadata, model: model, path: fileURL.path))
        try AtomicFileReplacement.replace(fileURL, storeName: typeName) { try writer.write(contents, to: $0) }
    }
}
