import CStrataLMDB

/// One open liblmdb transaction, read-only or read-write. It lives only inside
/// ``LMDBEnvironment/read(_:)`` or ``LMDBEnvironment/write(_:)``, on the thread that runs it.
struct LMDBTransaction {
    /// The transaction handle.
    let handle: OpaquePointer

    /// The unnamed database that lists the named ones (liblmdb's `MAIN_DBI`).
    static let mainDatabase: MDB_dbi = 1

    /// The value stored under `key` in `database`, or `nil`.
    func get(_ database: MDB_dbi, _ key: [UInt8]) throws -> [UInt8]? {
        try withValue(database, key) { $0.map { Array($0) } }
    }

    /// Calls `body` with the bytes stored under `key` in `database` (or `nil`), valid only
    /// during the call.
    func withValue<T>(_ database: MDB_dbi, _ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> T) throws -> T {
        var data = MDB_val()
        let code = key.withUnsafeBytes { keyBytes in
            var keyValue = MDB_val(
                mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_get(handle, database, &keyValue, &data)
        }
        if code == MDB_NOTFOUND { return try body(nil) }
        try LMDBError.check(code, "mdb_get")
        return try body(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// Stores `value` under `key` in `database`, replacing any value there.
    func put(_ database: MDB_dbi, _ key: [UInt8], _ value: [UInt8]) throws(LMDBError) {
        let code = key.withUnsafeBytes { keyBytes in
            value.withUnsafeBytes { valueBytes in
                var keyValue = MDB_val(
                    mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                var data = MDB_val(
                    mv_size: valueBytes.count, mv_data: UnsafeMutableRawPointer(mutating: valueBytes.baseAddress))
                return mdb_put(handle, database, &keyValue, &data, 0)
            }
        }
        try LMDBError.check(code, "mdb_put")
    }

    /// Removes `key` from `database`; whether it was there.
    @discardableResult
    func delete(_ database: MDB_dbi, _ key: [UInt8]) throws(LMDBError) -> Bool {
        let code = key.withUnsafeBytes { keyBytes in
            var keyValue = MDB_val(
                mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_del(handle, database, &keyValue, nil)
        }
        if code == MDB_NOTFOUND { return false }
        try LMDBError.check(code, "mdb_del")
        return true
    }

    /// Removes every key of `database`, keeping the database (`mdb_drop` without deleting it).
    func empty(_ database: MDB_dbi) throws(LMDBError) {
        try LMDBError.check(mdb_drop(handle, database, 0), "mdb_drop")
    }

    /// The number of keys in `database`, from its B-tree's header (`mdb_stat`).
    func count(_ database: MDB_dbi) throws(LMDBError) -> Int {
        var stat = MDB_stat()
        try LMDBError.check(mdb_stat(handle, database, &stat), "mdb_stat")
        return stat.ms_entries
    }

    /// Visits the keys of `database` from the first at or after `start`, in key order, while
    /// `visit` returns `true`. The key and value buffers are valid only during each call.
    func scan(
        _ database: MDB_dbi, from start: [UInt8],
        _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        var cursor: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(handle, database, &cursor), "mdb_cursor_open")
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val()
        var data = MDB_val()
        var code = start.withUnsafeBytes { startBytes in
            key = MDB_val(mv_size: startBytes.count, mv_data: UnsafeMutableRawPointer(mutating: startBytes.baseAddress))
            return start.isEmpty
                ? mdb_cursor_get(cursor, &key, &data, MDB_FIRST) : mdb_cursor_get(cursor, &key, &data, MDB_SET_RANGE)
        }
        while code == 0 {
            let keyBytes = UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size)
            let valueBytes = UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size)
            guard try visit(keyBytes, valueBytes) else { return }
            code = mdb_cursor_get(cursor, &key, &data, MDB_NEXT)
        }
        if code != MDB_NOTFOUND { try LMDBError.check(code, "mdb_cursor_get") }
    }

    /// Visits the keys of `database` that begin with `prefix`, in key order.
    func scan(
        _ database: MDB_dbi, prefix: [UInt8], _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try scan(database, from: prefix) { key, value in
            guard key.starts(with: prefix) else { return false }
            try visit(key, value)
            return true
        }
    }

    /// Opens the named database `name`; `nil` when it does not exist and `create` is false.
    func openDatabase(_ name: String, create: Bool) throws(LMDBError) -> MDB_dbi? {
        var database: MDB_dbi = 0
        let code = mdb_dbi_open(handle, name, create ? UInt32(MDB_CREATE) : 0, &database)
        if code == MDB_NOTFOUND { return nil }
        try LMDBError.check(code, "mdb_dbi_open(\(name))")
        return database
    }
}
