import Foundation

/// One object of a whole-file store: its snapshot and the members of its to-many
/// relationships.
public struct StoreNode: Sendable, Hashable {
    /// The object's attribute values, to-one references and version.
    public var snapshot: Snapshot
    /// The members of each to-many relationship, by name (absent means empty).
    public var toManyRelationships: [String: [ObjectID]]

    /// Creates a node.
    public init(snapshot: Snapshot, toManyRelationships: [String: [ObjectID]] = [:]) {
        self.snapshot = snapshot
        self.toManyRelationships = toManyRelationships
    }
}

/// Everything a whole-file store holds.
public struct AtomicStoreContents: Sendable, Hashable {
    /// The store's metadata.
    public var metadata: StoreMetadata
    /// Every object.
    public var nodes: [StoreNode]
    /// The next integer reference to hand out for a new object.
    public var nextReference: Int64

    /// Creates contents.
    public init(metadata: StoreMetadata, nodes: [StoreNode] = [], nextReference: Int64 = 1) {
        self.metadata = metadata
        self.nodes = nodes
        self.nextReference = nextReference
    }
}

/// A store that reads and writes its whole file at once (XML, binary, memory). The core wraps
/// it in an adapter that keeps every node in memory, evaluates predicates and sorts with the
/// core's evaluator, and makes it an ``IncrementalStore``.
///
/// Obligations of a store author:
/// - ``load()`` returns the file's contents, or `nil` when there is no file yet (a new
///   store); a damaged or foreign file is ``StoreError/Code/corrupt`` naming the file and
///   position.
/// - ``write(_:)`` replaces the file with `contents` atomically: write a temporary file,
///   flush it, rename it over the old one. After a failure the old file is intact.
///
/// While a store with a ``url`` is open for writing, the adapter locks the side file
/// `<url>.lock`, so that a second writable opening is ``StoreError/Code/inUse``
/// (see ``locksFile``).
public protocol AtomicStore: Sendable {
    /// The store's type name, as registered with a coordinator.
    var typeName: String { get }
    /// The store's file, if it has one.
    var url: URL? { get }
    /// What the store can do beyond the obligations every store has.
    var capabilities: StoreCapabilities { get }

    /// Whether a writable opening locks `<url>.lock`; by default, whenever the store has a
    /// ``url``. A store whose URL names no file it writes says `false`.
    var locksFile: Bool { get }

    /// The file's contents; `nil` when the store is new.
    func load() throws -> AtomicStoreContents?

    /// The file's contents as ``load()`` reads them, each snapshot's values held by the slots
    /// of its entity in `schema` where the store can (``PropertyValues/init(entity:slots:)``),
    /// which spares the core from looking each value up by name. By default, ``load()``.
    func load(slotsOf schema: ModelSchema) throws -> AtomicStoreContents?

    /// Replaces the file's contents atomically.
    func write(_ contents: AtomicStoreContents) throws
}

extension AtomicStore {
    /// Whether the store has a ``url``: a store with a file locks it while open for writing.
    public var locksFile: Bool { url != nil }

    /// The contents ``load()`` reads, their values held by name.
    public func load(slotsOf schema: ModelSchema) throws -> AtomicStoreContents? { try load() }
}
