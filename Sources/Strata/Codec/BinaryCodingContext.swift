/// Tables a writer and its reader share to keep repeated text out of the bytes: the store
/// identifier most object IDs carry, and lists of entity and property names that IDs, values and
/// to-many relationships refer to by index.
///
/// A default context has no tables: every name is written in full, so the bytes stand on their
/// own. A file format that writes the tables once (the binary store writes them in its
/// header and in each entity's section) can then refer to them from every record.
@_spi(StoreAuthoring) public struct BinaryCodingContext: Sendable, Hashable {
    /// The store identifier an object ID may leave out, written as a flag instead.
    public var homeStoreIdentifier: String? {
        didSet { homeNamespaces = Self.namespaces(of: entityNames, in: homeStoreIdentifier) }
    }
    /// Entity names object IDs may refer to by index.
    public var entityNames: [String] {
        didSet {
            entityIndexes = Self.indexes(of: entityNames)
            homeNamespaces = Self.namespaces(of: entityNames, in: homeStoreIdentifier)
        }
    }
    /// The ID namespace of each of ``entityNames`` in the home store, so that reading an ID
    /// of the home store by entity index costs no lookup of its names.
    private(set) var homeNamespaces: [ObjectID.Namespace]
    /// Property names snapshots and nodes may refer to by index.
    public var propertyNames: [String] {
        didSet { propertyIndexes = Self.indexes(of: propertyNames) }
    }
    /// The index of each of ``entityNames``, by name.
    public private(set) var entityIndexes: [String: Int]
    private(set) var propertyIndexes: [String: Int]

    /// A context with the given tables (none unless given).
    public init(homeStoreIdentifier: String? = nil, entityNames: [String] = [], propertyNames: [String] = []) {
        self.homeStoreIdentifier = homeStoreIdentifier
        self.entityNames = entityNames
        self.propertyNames = propertyNames
        entityIndexes = Self.indexes(of: entityNames)
        propertyIndexes = Self.indexes(of: propertyNames)
        homeNamespaces = Self.namespaces(of: entityNames, in: homeStoreIdentifier)
    }

    private static func namespaces(of entityNames: [String], in store: String?) -> [ObjectID.Namespace] {
        entityNames.map { ObjectID.Namespace(storeIdentifier: store, entityName: $0) }
    }

    private static func indexes(of names: [String]) -> [String: Int] {
        Dictionary(names.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }
}
