import CStrataLMDB
import Strata

extension LMDBStore {
    /// The indexes a store of `request` uses in the file `environment` holds, and whether
    /// their entries must be written first: the model's indexes when the file records the same
    /// set or may be written (then rebuilt when it records another, or none); otherwise only
    /// those the file records (only the to-one ones for a file that records none), as a
    /// read-only store cannot write the entries the others lack.
    static func indexes(
        for request: StoreOpenRequest, in environment: LMDBEnvironment, meta: MDB_dbi
    ) throws -> (indexes: LMDBIndexes, needsRebuild: Bool) {
        let wanted = LMDBIndexes(schema: request.model.schema)
        let recorded = try environment.read(keepingDatabases: true) { transaction in
            try transaction.get(meta, LMDBLayout.indexesKey).map {
                try LMDBLayout.decodeNames($0, source: "The index table of '\(environment.path)'")
            }
        }
        if recorded == wanted.signature { return (wanted, false) }
        if !environment.isReadOnly && !request.options.isReadOnly { return (wanted, true) }
        let trusted = recorded ?? wanted.signature.filter { $0.hasSuffix("=\(LMDBIndexKind.reference)") }
        return (wanted.restricted(to: Set(trusted)), false)
    }

    /// Rewrites every entry of the index database for ``indexes`` from the records, and records
    /// their set, in one write transaction: what opening a file does when the set it records
    /// differs from the model's (a fetch index added or removed, or a file from before the set
    /// was recorded), so that no fetch searches an index missing objects.
    func rebuildIndexes() throws {
        try environment.write { transaction in
            try transaction.empty(databases.index)
            for (root, database) in databases.records.sorted(by: { $0.key < $1.key }) {
                var keys: [[UInt8]] = []
                try transaction.scan(database, from: []) { key, value in
                    keys += indexes.keys(
                        of: try layout.decode(Array(value), primaryKey: LMDBLayout.primaryKey(key), root: root))
                    return true
                }
                for key in keys { try transaction.put(databases.index, key, []) }
            }
            try transaction.put(databases.meta, LMDBLayout.indexesKey, LMDBLayout.encode(names: indexes.signature))
        }
    }
}
