import CStrataLMDB

/// A failure reported by liblmdb: its return code and `mdb_strerror`'s text, with the call that
/// failed.
struct LMDBError: Error, Sendable, CustomStringConvertible {
    /// The return code: an `MDB_*` code or an `errno` value.
    let code: Int32
    /// The call that failed, such as `"mdb_put"`.
    let call: String

    /// Whether the map is full (`MDB_MAP_FULL`): the environment must grow before retrying.
    var isMapFull: Bool { code == MDB_MAP_FULL }

    /// Whether another process grew the map beyond this one's (`MDB_MAP_RESIZED`).
    var isMapResized: Bool { code == MDB_MAP_RESIZED }

    /// Whether the file is damaged or not an LMDB file.
    var isCorruption: Bool {
        code == MDB_CORRUPTED || code == MDB_INVALID || code == MDB_VERSION_MISMATCH || code == MDB_PAGE_NOTFOUND
    }

    var description: String { "\(call) failed: \(String(cString: mdb_strerror(code))) (\(code))" }

    /// Throws unless `code` is 0.
    static func check(_ code: Int32, _ call: String) throws(LMDBError) {
        guard code == 0 else { throw LMDBError(code: code, call: call) }
    }
}
