extension ObjectID {
    /// A store identifier and an entity name, interned: namespaces made from the same two names
    /// share one instance, so that comparing two of them is a pointer comparison and hashing one
    /// combines a hash worked out once. A store that makes many IDs keeps the namespace of each
    /// of its entities and creates IDs with ``ObjectID/init(_:reference:)``.
    ///
    /// The interning table keeps the first `internedLimit` namespaces for the life of the
    /// process (stores and entities are few); names beyond it, such as many store identifiers
    /// read from untrusted URIs, get namespaces of their own that compare by their names, so the
    /// table never grows without bound.
    public struct Namespace: Sendable, Hashable {
        private let names: Names

        /// The namespace of `entityName`'s objects in the store `storeIdentifier` (`nil` for
        /// temporary IDs).
        public init(storeIdentifier: String?, entityName: String) {
            let key = Key(storeIdentifier: storeIdentifier, entityName: entityName)
            names = Self.interned.withLock { table in
                if let names = table[key] { return names }
                guard table.count < Self.internedLimit else { return Names(key, isInterned: false) }
                let names = Names(key, isInterned: true)
                table[key] = names
                return names
            }
        }

        /// The namespace of each of `entityNames` in the store `storeIdentifier`, in order:
        /// what a store handing out many IDs at once calls, each name looked up once.
        public static func namespaces(storeIdentifier: String?, entityNames: [String]) -> [Namespace] {
            var found: [String: Namespace] = [:]
            return entityNames.map { name in
                if let known = found[name] { return known }
                let namespace = Namespace(storeIdentifier: storeIdentifier, entityName: name)
                found[name] = namespace
                return namespace
            }
        }

        /// How many namespaces the process interns; later ones compare by their names.
        static let internedLimit = 4_096

        /// How many namespaces are interned now.
        static var internedCount: Int { interned.withLock { $0.count } }

        /// Whether this namespace is the shared instance for its names.
        var isInterned: Bool { names.isInterned }

        /// The identifier of the store; `nil` for temporary IDs.
        public var storeIdentifier: String? { names.key.storeIdentifier }
        /// The name of the entity.
        public var entityName: String { names.key.entityName }
        /// The start of the URI of every ID in the namespace (``ObjectID/uriString``), worked
        /// out once: `x-strata://<store>/<Entity>/`, both names percent-encoded.
        var uriPrefix: String { names.uriPrefix }

        public static func == (lhs: Namespace, rhs: Namespace) -> Bool {
            if lhs.names === rhs.names { return true }
            if lhs.names.isInterned && rhs.names.isInterned { return false }
            return lhs.names.key == rhs.names.key
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(names.hash) }

        private struct Key: Hashable, Sendable {
            let storeIdentifier: String?
            let entityName: String
        }

        /// Never referenced weakly, so that retaining one stays on the runtime's fast path.
        private final class Names: Sendable {
            let key: Key
            let hash: Int
            let isInterned: Bool
            let uriPrefix: String

            init(_ key: Key, isInterned: Bool) {
                self.key = key
                self.hash = key.hashValue
                self.isInterned = isInterned
                let store = PercentEncoding.encode(key.storeIdentifier ?? "")
                uriPrefix = "x-strata://\(store)/\(PercentEncoding.encode(key.entityName))/"
            }
        }

        private static let interned = Locked([Key: Names]())
    }
}
