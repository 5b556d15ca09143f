import Foundation

/// Identifies one record of one entity in one store.
///
/// An object inserted into a context has a *temporary* ID until it is first saved; the
/// store then hands out a permanent reference. Both forms have a URI representation:
/// `x-strata://<store identifier>/<Entity>/p<number>` for a permanent integer reference
/// (Core Data's layout under Strata's own scheme) and `x-strata:///<Entity>/t<UUID>` for a temporary one.
///
/// Comparing and hashing IDs touches no text: an ID keeps its store identifier and entity name
/// as one shared ``Namespace``, compared by identity, beside its reference.
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

    /// The store identifier and entity name of the ID, shared by every ID of that entity in
    /// that store.
    public var namespace: Namespace
    /// The record's reference inside its store.
    public var reference: Reference

    /// The identifier (UUID string) of the store holding the record; `nil` while temporary.
    public var storeIdentifier: String? {
        get { namespace.storeIdentifier }
        set { namespace = Namespace(storeIdentifier: newValue, entityName: entityName) }
    }

    /// The name of the record's entity.
    public var entityName: String {
        get { namespace.entityName }
        set { namespace = Namespace(storeIdentifier: storeIdentifier, entityName: newValue) }
    }

    /// Creates an ID from its parts.
    public init(storeIdentifier: String?, entityName: String, reference: Reference) {
        self.init(Namespace(storeIdentifier: storeIdentifier, entityName: entityName), reference: reference)
    }

    /// Creates an ID in `namespace`: what a store making many IDs of one entity calls, with a
    /// namespace it worked out once.
    public init(_ namespace: Namespace, reference: Reference) {
        self.namespace = namespace
        self.reference = reference
    }

    /// Creates a new temporary ID for an object of `entityName`.
    public static func temporary(entityName: String) -> ObjectID {
        temporary(in: Namespace(storeIdentifier: nil, entityName: entityName))
    }

    /// Creates a new temporary ID in `namespace`: a process-wide random prefix and a counter,
    /// so that no UUID is generated for each new object.
    static func temporary(in namespace: Namespace) -> ObjectID {
        ObjectID(namespace, reference: .temporary(TemporaryReferences.next()))
    }

    /// Whether this ID is temporary (the object has not been saved yet).
    public var isTemporary: Bool {
        if case .temporary = reference { return true }
        return false
    }

    /// The URI representation as text: `x-strata://<store>/<Entity>/<t|p|s><reference>`,
    /// with the store identifier, entity name and string keys percent-encoded (every byte but
    /// ASCII letters, digits and `-._~`), so that any ID reads back with ``init(uriString:)``.
    public var uriString: String {
        let tail: String
        switch reference {
        case .temporary(let uuid): tail = "t" + uuid.uuidString
        case .integer(let number): tail = "p\(number)"
        case .string(let key): tail = "s" + PercentEncoding.encode(key)
        }
        return namespace.uriPrefix + tail
    }

    /// The URI representation (see ``uriString``).
    public var uriRepresentation: URL {
        guard let url = URL(string: uriString) else {
            preconditionFailure("A percent-encoded object ID is always a valid URL: \(uriString)")
        }
        return url
    }

    /// Reads an ID from text made by ``uriString``; `nil` when `text` is not one.
    public init?(uriString text: String) {
        let scheme = "x-strata://"
        guard text.hasPrefix(scheme) else { return nil }
        let parts = text.dropFirst(scheme.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let store = PercentEncoding.decode(parts[0]),
            let entity = PercentEncoding.decode(parts[1]), !entity.isEmpty, let marker = parts[2].first
        else { return nil }
        let body = parts[2].dropFirst()
        let reference: Reference
        switch marker {
        case "t":
            guard let uuid = UUID(uuidString: String(body)) else { return nil }
            reference = .temporary(uuid)
        case "p":
            guard let number = Int64(body) else { return nil }
            reference = .integer(number)
        case "s":
            guard let key = PercentEncoding.decode(body) else { return nil }
            reference = .string(key)
        default:
            return nil
        }
        self.init(storeIdentifier: store.isEmpty ? nil : store, entityName: entity, reference: reference)
    }

    /// Reads an ID from a URI made by ``uriRepresentation``; `nil` when `uri` is not one.
    public init?(uriRepresentation uri: URL) {
        self.init(uriString: uri.absoluteString)
    }

    /// The ID's ``uriString``.
    public var description: String { uriString }
}
