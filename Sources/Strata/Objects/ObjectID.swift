import Foundation

/// Identifies one record of one entity in one store.
///
/// An object inserted into a context has a *temporary* ID until it is first saved; the
/// store then hands out a permanent reference. Both forms have a URI representation:
/// `x-coredata://<store identifier>/<Entity>/p<number>` for a permanent integer reference
/// (the form Core Data uses) and `x-coredata:///<Entity>/t<UUID>` for a temporary one.
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
    /// How a store identifies a record.
    public enum Reference: Sendable, Hashable {
        /// A temporary reference, valid until the object is first saved.
        case temporary(UUID)
        /// A permanent integer reference, such as a SQLite primary key.
        case integer(Int64)
        /// A permanent string reference, for stores keyed by strings.
        case string(String)
    }

    /// The identifier (UUID string) of the store holding the record; `nil` while temporary.
    public var storeIdentifier: String?
    /// The name of the record's entity.
    public var entityName: String
    /// The record's reference inside its store.
    public var reference: Reference

    /// Creates an ID from its parts.
    public init(storeIdentifier: String?, entityName: String, reference: Reference) {
        self.storeIdentifier = storeIdentifier
        self.entityName = entityName
        self.reference = reference
    }

    /// Creates a new temporary ID for an object of `entityName`.
    public static func temporary(entityName: String) -> ObjectID {
        ObjectID(storeIdentifier: nil, entityName: entityName, reference: .temporary(UUID()))
    }

    /// Whether this ID is temporary (the object has not been saved yet).
    public var isTemporary: Bool {
        if case .temporary = reference { return true }
        return false
    }

    /// The URI representation, `x-coredata://<store>/<Entity>/p<number>` for integer references.
    public var uriRepresentation: URL {
        let entity = entityName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entityName
        let tail: String
        switch reference {
        case .temporary(let uuid): tail = "t\(uuid.uuidString)"
        case .integer(let number): tail = "p\(number)"
        case .string(let key):
            tail = "s" + (key.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? key)
        }
        return URL(string: "x-coredata://\(storeIdentifier ?? "")/\(entity)/\(tail)")!
    }

    /// Parses a URI made by ``uriRepresentation``; `nil` when `uri` is not one.
    public init?(uriRepresentation uri: URL) {
        guard uri.scheme == "x-coredata" else { return nil }
        let parts = uri.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 2, let marker = parts[1].first else { return nil }
        let body = String(parts[1].dropFirst())
        let reference: Reference
        switch marker {
        case "t":
            guard let uuid = UUID(uuidString: body) else { return nil }
            reference = .temporary(uuid)
        case "p":
            guard let number = Int64(body) else { return nil }
            reference = .integer(number)
        case "s":
            reference = .string(body)
        default:
            return nil
        }
        let host = uri.host ?? ""
        self.init(storeIdentifier: host.isEmpty ? nil : host, entityName: parts[0], reference: reference)
    }

    public var description: String { uriRepresentation.absoluteString }
}
