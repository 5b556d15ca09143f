import Foundation
import Strata

/// Reads a whole XML store in one forward pass through ``XMLTextReader``, then links the
/// relationships, whose `idrefs` may point at objects further down the file.
///
/// Names are matched without regard to case (``XMLStoreNames``) against the model the file's
/// metadata records, else the one the store was given. Anything that does not fit,
/// from malformed XML to an `idrefs` naming no object, is `StoreError/Code/corrupt` naming
/// the file and position; a newer format version is `StoreError/Code/unsupported`.
struct XMLStoreReader {
    /// The store type, as recorded in the metadata read.
    let typeName: String
    /// The model names are resolved against when the file records none.
    let model: ManagedObjectModel?
    /// The model whose entities' slots hold the values read, where they fit (see
    /// `AtomicStore/load(slotsOf:)`); else the model names are resolved against.
    var slotSchema: ModelSchema? = nil

    /// An object as read, before its relationships are linked.
    struct PendingObject {
        var reference: Int64
        var entityName: String
        var version: Int64
        var values: [String: AttributeValue]
        var toOne: [String: Member]
        var toMany: [String: [Member]]
        /// The entity each relationship's `destination` names, for members that are not in the
        /// file (left behind by a no-action delete rule).
        var destinations: [String: String]
        /// The line the object starts on, for messages.
        var line: Int
    }

    /// A relationship member as `idrefs` names it: an object of the file (`z12`), or an object
    /// of another store by its URI (a relationship across stores).
    enum Member {
        case local(Int64)
        case foreign(ObjectID)
    }

    /// Reads the document `reader` is at the start of.
    func read(_ reader: XMLTextReader) throws -> AtomicStoreContents {
        guard case .start("database", let isEmpty) = try nextElement(reader, in: "the document") else {
            throw reader.corrupt("this is not an XML store: its root element is not <database>.")
        }
        guard !isEmpty, case .start("databaseInfo", let infoEmpty) = try nextElement(reader, in: "<database>") else {
            throw reader.corrupt("<database> does not start with <databaseInfo>.")
        }
        let info = try readInfo(reader, isEmpty: infoEmpty)
        let names = try XMLStoreNames(metadata: info.metadata, model: model, path: reader.path)
        var objects: [PendingObject] = []
        while case .start(let name, let objectEmpty) = try nextElement(reader, in: "<database>") {
            guard name == "object" else { throw reader.corrupt("<database> holds <\(name)>; it holds only <object>.") }
            objects.append(try readObject(reader, isEmpty: objectEmpty, names: names))
        }
        guard try reader.next() == .endOfDocument else { throw reader.corrupt("there is more after </database>.") }
        // <nextObjectID> holds the last number handed out: Core Data's files hold z102 to
        // z<nextObjectID>. An id above it (a hand-edited file) still gets no twin.
        let maximum = objects.map(\.reference).max() ?? 0
        return AtomicStoreContents(
            metadata: info.metadata,
            nodes: try link(objects, names: names, storeIdentifier: info.metadata.storeIdentifier, path: reader.path),
            nextReference: max(info.lastObjectID, maximum) + 1)
    }

    private func readInfo(_ reader: XMLTextReader, isEmpty: Bool) throws -> (
        metadata: StoreMetadata, lastObjectID: Int64
    ) {
        var fields: [String: String] = [:]
        var plist = PropertyListValue.dictionary([:])
        while !isEmpty, case .start(let name, let fieldEmpty) = try nextElement(reader, in: "<databaseInfo>") {
            if name == "metadata" {
                if !fieldEmpty { plist = try readMetadataPlist(reader) }
            } else {
                fields[name] = try PropertyListValue.text(of: name, isEmpty: fieldEmpty, from: reader)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                // A newer format may differ in what follows, so its version is checked first.
                if name == "version" { try checkVersion(fields[name], reader) }
            }
        }
        try checkVersion(fields["version"], reader)
        guard let uuid = fields["UUID"], !uuid.isEmpty else { throw reader.corrupt("<databaseInfo> has no <UUID>.") }
        guard let nextText = fields["nextObjectID"], let next = Int64(nextText), next >= 0, next < .max else {
            throw reader.corrupt("<databaseInfo> has no <nextObjectID> number.")
        }
        let metadata = try XMLStoreMetadata.metadata(plist, uuid: uuid, storeType: typeName, corrupt: reader.corrupt)
        return (metadata, next)
    }

    /// Refuses a missing format version as damage and a newer one as unsupported.
    private func checkVersion(_ text: String?, _ reader: XMLTextReader) throws {
        guard let version = text.flatMap({ Int64($0) }) else {
            throw reader.corrupt("<databaseInfo> has no <version> number.")
        }
        guard version <= XMLStoreFormat.version else {
            throw StoreError(
                code: .unsupported,
                message: "'\(reader.path)' was written in XML store format version \(version); this Strata reads "
                    + "versions up to \(XMLStoreFormat.version). Use a newer Strata.")
        }
    }

    /// Reads the inside of `<metadata>`: an optional `<plist>` holding one dictionary.
    private func readMetadataPlist(_ reader: XMLTextReader) throws -> PropertyListValue {
        var plist = PropertyListValue.dictionary([:])
        while case .start(let name, let isEmpty) = try nextElement(reader, in: "<metadata>") {
            guard name == "plist" else { throw reader.corrupt("<metadata> holds <\(name)>; it holds only <plist>.") }
            while !isEmpty, case .start(let valueName, let valueEmpty) = try nextElement(reader, in: "<plist>") {
                plist = try PropertyListValue.read(valueName, isEmpty: valueEmpty, from: reader)
            }
        }
        return plist
    }

    /// The next element start or end inside `place`, passing over whitespace.
    func nextElement(_ reader: XMLTextReader, in place: String) throws -> XMLTextReader.Node {
        while true {
            let node = try reader.next()
            switch node {
            case .text(let content) where XMLStoreFormat.isWhitespace(content): continue
            case .text: throw reader.corrupt("\(place) holds text outside any element.")
            case .endOfDocument: throw reader.corrupt("the file ends inside \(place).")
            case .start, .end: return node
            }
        }
    }
}
