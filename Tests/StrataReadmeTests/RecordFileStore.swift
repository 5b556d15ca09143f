// snippet: custom-store
import Foundation
@_spi(StoreAuthoring) import Strata  // the store-authoring blocks: codec, file replacement

/// A whole-file store: the metadata, the next reference and every object in one checksummed
/// record of Strata's binary value codec. The core's adapter does the rest.
struct RecordFileStore: AtomicStore {
    let fileURL: URL

    var typeName: String { "RecordFile" }
    var url: URL? { fileURL }
    var capabilities: StoreCapabilities { [] }

    func load() throws -> AtomicStoreContents? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }  // a new store
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: fileURL))
        } catch {
            throw StoreError(code: .io, message: "Could not read '\(fileURL.path)'.", underlying: error)
        }
        guard !bytes.isEmpty else { return nil }
        return try BinaryRecord.decode(bytes, source: "'\(fileURL.path)'") { reader in
            let metadata = try reader.readMetadata()
            let nextReference = try reader.readSigned("the next reference")
            let count = try reader.readCount("the number of objects")
            let nodes = try (0..<count).map { _ in try reader.readNode("an object") }
            return AtomicStoreContents(metadata: metadata, nodes: nodes, nextReference: nextReference)
        }
    }

    func write(_ contents: AtomicStoreContents) throws {
        let bytes = BinaryRecord.encode { writer in
            writer.write(metadata: contents.metadata)
            writer.write(signed: contents.nextReference)
            writer.write(count: contents.nodes.count)
            for node in contents.nodes { writer.write(node: node) }
        }
        try AtomicFileReplacement.replace(fileURL, storeName: typeName, contents: bytes)
    }
}

extension StoreType {
    /// Record files, for a coordinator's `storeTypes:`.
    static let recordFile = StoreType.atomic(name: "RecordFile") { url in
        guard let url else { throw StoreError(code: .unsupported, message: "A RecordFile store needs a file.") }
        return RecordFileStore(fileURL: url)
    }
}
// end snippet
