extension ObjectID {
    /// A store identifier and an entity name, interned: every namespace made from the same two
    /// names is one shared instance, so namespaces compare and hash by identity. A store that
    /// makes many IDs keeps the namespace of each of its entities and creates IDs with
    /// ``ObjectID/init(_:reference:)``.
    ///
    /// The interning table holds namespaces weakly: a namespace lives as long as an ID, an
    /// entity or a store holds it, so names read from untrusted URIs do not pile up. Two IDs
    /// alive at once with the same names always share one instance.
    public struct Namespace: Sendable, Hashable {
        private let names: Names

        /// The namespace of `entityName`'s objects in the store `storeIdentifier` (`nil` for
        /// temporary IDs).
        public init(storeIdentifier: String?, entityName: String) {
            let key = Key(storeIdentifier: storeIdentifier, entityName: entityName)
            names = Self.interned.withLock { table in
                if let names = table.entries[key]?.names { return names }
                let names = Names(key)
                table.entries[key] = WeakNames(names: names)
                if table.entries.count > table.purgeAt {
                    table.entries = table.entries.filter { $0.value.names != nil }
                    table.purgeAt = max(64, table.entries.count * 2)
                }
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

        /// How many entries the interning table holds now, live or not yet purged.
        static var internedCount: Int { interned.withLock { $0.entries.count } }

        /// The identifier of the store; `nil` for temporary IDs.
        public var storeIdentifier: String? { names.key.storeIdentifier }
        /// The name of the entity.
        public var entityName: String { names.key.entityName }

        public static func == (lhs: Namespace, rhs: Namespace) -> Bool { lhs.names === rhs.names }

        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(names)) }

        private struct Key: Hashable, Sendable {
            let storeIdentifier: String?
            let entityName: String
        }

        private final class Names: Sendable {
            let key: Key
            init(_ key: Key) { self.key = key }
        }

        private struct WeakNames {
            weak var names: Names?
        }

        /// The live namespaces by names; dead entries are dropped when the table has doubled
        /// since the last purge.
        private struct Table {
            var entries: [Key: WeakNames] = [:]
            var purgeAt = 64
        }

        private static let interned = Locked(Table())
    }
}
