import Foundation
@_spi(StoreAuthoring) import Strata

/// A whole-file store for tests: it keeps ``AtomicStoreContents`` as JSON in
/// one file, written atomically (to a temporary file, then renamed), so that tests can watch
/// the file itself.
///
/// The document names its ``formatVersion``; a file of a newer version is refused with
/// ``StoreError/Code/unsupported``, a file that is not such a document with
/// ``StoreError/Code/corrupt``.
public struct JSONFileStore: AtomicStore {
    /// The version of the document format this store writes and the newest it reads.
    public static let formatVersion = 1

    /// How the store's writes go wrong, for failure tests.
    public enum Failure: Sendable {
        /// Writes succeed.
        case none
        /// The file is written in full, then the write reports an error, as when syncing the
        /// folder fails: a file is left behind that someone has to remove.
        case afterWriting
        /// Every load appends a space to the file, as a store that touches its file when it
        /// is only read would: a negative control for the checks that a source stays as it was.
        case touchesFileOnLoad
        /// Integer 64 values are written through `Double`, losing what a Double cannot hold.
        case keepsIntegersAsDoubles
        /// A new file gets an identifier of its own rather than the one the store was opened
        /// with (`identifierForNewStore`).
        case ignoresIdentifierForNewStore
        /// A write holding objects leaves the user keys out.
        case dropsUserKeysWithObjects
        /// Every write leaves a copy of the file beside it, as a store that forgets to remove
        /// its temporary file would.
        case leavesTemporaryFile
        /// Every write makes the file readable, writable and executable by everyone, whatever
        /// the umask.
        case opensItsFileToEveryone
        /// A file that is not a store document is refused with the JSON decoder's own error,
        /// not a `StoreError`.
        case throwsDecoderErrors
        /// A file that is not a store document is refused as corrupt, after a copy of it is
        /// left beside it for recovery: a side file no one asked for.
        case leavesRecoveryCopy
        /// Saves overwrite the file in place rather than replacing it: a write that fails or
        /// is cut short leaves half a file. The file is written in two halves a millisecond
        /// apart, as on a slow disk, so that the durability checks' kills land between them
        /// often enough to be caught on any machine.
        case writesInPlace
        /// Saves are acknowledged at once and written when the store is closed, as a
        /// write-behind cache would: a process killed after a save loses it.
        case writesOnClose
        /// A writable opening takes no lock on its file, so a second writable opening, in this
        /// process or another, is not refused, and nothing notices the file changing underneath.
        case takesNoLock
    }

    /// The document a ``Failure/writesOnClose`` store has yet to write, written when the last
    /// copy of the store goes away.
    final class PendingDocument: @unchecked Sendable {
        // Safe: a store's saves are serialised by its adapter, and deinit runs alone.
        let fileURL: URL
        var data: Data?

        init(fileURL: URL) { self.fileURL = fileURL }

        deinit {
            if let data { try? data.write(to: fileURL, options: .atomic) }
        }
    }

    public let typeName: String
    let fileURL: URL
    let failure: Failure
    let pending: PendingDocument

    init(typeName: String, fileURL: URL, failure: Failure) {
        self.typeName = typeName
        self.fileURL = fileURL
        self.failure = failure
        pending = PendingDocument(fileURL: fileURL)
    }

    public var url: URL? { fileURL }
    public var capabilities: StoreCapabilities { [] }
    public var locksFile: Bool { failure != .takesNoLock }

    public func load() throws -> AtomicStoreContents? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw StoreError(code: .io, message: "Could not read '\(fileURL.path)'.", underlying: error)
        }
        // A zero-length file is a store that was never saved, as an empty SQLite file is.
        guard !data.isEmpty else { return nil }
        if failure == .touchesFileOnLoad { try (data + Data(" ".utf8)).write(to: fileURL) }
        if let version = (try? JSONDecoder().decode(FormatHeader.self, from: data))?.formatVersion,
            version > Self.formatVersion
        {
            throw StoreError(
                code: .unsupported,
                message: "'\(fileURL.path)' was written in format version \(version) of the \(typeName) store; "
                    + "this one reads versions up to \(Self.formatVersion). Use a newer Strata.")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            if failure == .throwsDecoderErrors { throw error }
            if failure == .leavesRecoveryCopy {
                try data.write(to: fileURL.appendingPathExtension("recovered"))
            }
            throw StoreError(
                code: .corrupt, message: "'\(fileURL.path)' is not a \(typeName) store.", underlying: error)
        }
        return try document.contents(in: fileURL)
    }

    public func write(_ contents: AtomicStoreContents) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(Document(defective(contents)))
        switch failure {
        case .writesInPlace:
            do {
                try Data().write(to: fileURL)
                let handle = try FileHandle(forWritingTo: fileURL)
                defer { try? handle.close() }
                try handle.write(contentsOf: data.prefix(data.count / 2))
                usleep(1_000)
                try handle.write(contentsOf: data.dropFirst(data.count / 2))
            } catch {
                throw StoreError(code: .io, message: "Could not write '\(fileURL.path)'.", underlying: error)
            }
        case .writesOnClose:
            pending.data = data
        default:
            try AtomicFileReplacement.replace(fileURL, storeName: typeName) { try data.write(to: $0) }
        }
        if failure == .afterWriting {
            throw StoreError(code: .io, message: "Could not sync the folder of '\(fileURL.path)'.")
        }
        if failure == .opensItsFileToEveryone {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: fileURL.path)
        }
        if failure == .leavesTemporaryFile {
            try data.write(to: fileURL.deletingLastPathComponent().appendingPathComponent(".tmp-\(UUID().uuidString)"))
        }
    }
}

extension JSONFileStore {
    /// `contents` with the store's ``Failure`` applied.
    private func defective(_ contents: AtomicStoreContents) -> AtomicStoreContents {
        var contents = contents
        switch failure {
        case .none, .afterWriting, .touchesFileOnLoad, .leavesTemporaryFile, .opensItsFileToEveryone,
            .throwsDecoderErrors, .leavesRecoveryCopy, .writesInPlace, .writesOnClose, .takesNoLock:
            break
        case .keepsIntegersAsDoubles:
            contents.nodes = contents.nodes.map { node in
                var node = node
                var values = node.snapshot.values.dictionary
                for (key, value) in values {
                    guard case .integer64(let integer) = value else { continue }
                    let double = Double(integer)
                    values[key] = .integer64(double >= 0x1p63 ? .max : Int64(double))
                }
                node.snapshot = Snapshot(
                    objectID: node.snapshot.objectID, values: values, version: node.snapshot.version)
                return node
            }
        case .ignoresIdentifierForNewStore:
            if !FileManager.default.fileExists(atPath: fileURL.path) {
                contents.metadata.storeIdentifier = UUID().uuidString
            }
        case .dropsUserKeysWithObjects:
            if !contents.nodes.isEmpty { contents.metadata.userInfo = [:] }
        }
        return contents
    }

    /// Rewrites the closed store file at `url` so that it claims the format version after
    /// ``formatVersion``, for tests of how newer files are refused.
    @Sendable public static func markNewerFormatVersion(at url: URL) throws {
        guard var document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw StoreError(code: .corrupt, message: "'\(url.path)' is not a JSON store document.")
        }
        document["formatVersion"] = formatVersion + 1
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: url, options: .atomic)
    }
}

extension StoreType {
    /// A store type whose stores are ``JSONFileStore`` files.
    public static func jsonFile(name: String = "JSON", failure: JSONFileStore.Failure = .none) -> StoreType {
        .atomic(name: name) { url in
            guard let url else {
                throw StoreError(code: .unsupported, message: "A \(name) store needs a file URL.")
            }
            return JSONFileStore(typeName: name, fileURL: url, failure: failure)
        }
    }
}

/// The part of a document read before the rest: its format version.
private struct FormatHeader: Decodable {
    var formatVersion: Int?
}

/// The JSON form of ``AtomicStoreContents``; object IDs are kept as their URI strings.
private struct Document: Codable {
    struct Node: Codable {
        var objectID: String
        var values: [String: AttributeValue]
        var version: Int64
        var toMany: [String: [String]]
    }

    var formatVersion: Int
    var metadata: StoreMetadata
    var nodes: [Node]
    var nextReference: Int64

    init(_ contents: AtomicStoreContents) {
        formatVersion = JSONFileStore.formatVersion
        metadata = contents.metadata
        nodes = contents.nodes.map { node in
            Node(
                objectID: node.snapshot.objectID.uriString, values: node.snapshot.values.dictionary,
                version: node.snapshot.version, toMany: node.toManyRelationships.mapValues { $0.map(\.uriString) })
        }
        nextReference = contents.nextReference
    }

    func contents(in url: URL) throws -> AtomicStoreContents {
        func objectID(_ text: String) throws -> ObjectID {
            guard let id = ObjectID(uriString: text) else {
                throw StoreError(code: .corrupt, message: "'\(url.path)' holds '\(text)', which is not an object ID.")
            }
            return id
        }
        return AtomicStoreContents(
            metadata: metadata,
            nodes: try nodes.map { node in
                StoreNode(
                    snapshot: Snapshot(
                        objectID: try objectID(node.objectID), values: node.values, version: node.version),
                    toManyRelationships: try node.toMany.mapValues { try $0.map(objectID) })
            },
            nextReference: nextReference)
    }
}
