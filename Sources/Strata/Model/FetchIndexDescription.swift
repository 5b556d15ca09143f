/// A named index over one or more properties of an entity, used by stores to speed up fetches.
///
/// Every element of an index is of the same kind: binary (a B-tree, ascending or
/// descending) or R-tree (numeric ranges, on non-optional numeric attributes only). A
/// partial index covers only the objects matching ``partialIndexPredicate``. Indexes do
/// not change version hashes: adding one needs no migration.
public struct FetchIndexDescription: Sendable, Hashable {
    /// One property of an index.
    public struct Element: Sendable, Hashable {
        /// How an element is indexed.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// A B-tree element, ordered ascending or descending.
            case binary
            /// An R-tree element, for range queries on numbers.
            case rTree
        }

        /// The name of the indexed property.
        public var propertyName: String
        /// How the element is indexed.
        public var kind: Kind
        /// Whether a binary element is ordered ascending.
        public var isAscending: Bool

        /// Creates an index element.
        public init(propertyName: String, kind: Kind = .binary, isAscending: Bool = true) {
            self.propertyName = propertyName
            self.kind = kind
            self.isAscending = isAscending
        }
    }

    /// The index's name, unique within its entity.
    public var name: String
    /// The indexed properties, in order.
    public var elements: [Element]
    /// The predicate (format syntax) selecting the objects a partial index covers.
    public var partialIndexPredicate: String?

    /// Creates an index.
    public init(name: String, elements: [Element], partialIndexPredicate: String? = nil) {
        self.name = name
        self.elements = elements
        self.partialIndexPredicate = partialIndexPredicate
    }
}
