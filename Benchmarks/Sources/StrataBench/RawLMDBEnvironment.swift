import CBenchLMDB
import Foundation

/// One LMDB environment for the raw floor, in one file without a subdirectory, as the store
/// keeps it.
final class RawLMDBEnvironment {
    let handle: OpaquePointer

    init(path: String) throws {
        var environment: OpaquePointer?
        try Self.check(mdb_env_create(&environment), "mdb_env_create")
        guard let environment else { throw FloorError(description: "mdb_env_create gave no environment") }
        handle = environment
        try Self.check(mdb_env_set_maxdbs(handle, 8), "mdb_env_set_maxdbs")
        try Self.check(mdb_env_set_mapsize(handle, 1 << 32), "mdb_env_set_mapsize")
        try Self.check(mdb_env_open(handle, path, UInt32(MDB_NOSUBDIR) | UInt32(MDB_NOTLS), 0o644), "mdb_env_open")
    }

    deinit { mdb_env_close(handle) }

    static func check(_ code: Int32, _ call: String) throws {
        guard code == 0 else { throw FloorError(description: "\(call): \(String(cString: mdb_strerror(code)))") }
    }

    /// Runs `body` in a transaction, committed when `body` returns and aborted when it throws.
    func transaction<T>(readOnly: Bool, _ body: (RawLMDBTransaction) throws -> T) throws -> T {
        var handle: OpaquePointer?
        try Self.check(mdb_txn_begin(self.handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &handle), "mdb_txn_begin")
        guard let handle else { throw FloorError(description: "mdb_txn_begin gave no transaction") }
        do {
            let result = try body(RawLMDBTransaction(handle: handle))
            try Self.check(mdb_txn_commit(handle), "mdb_txn_commit")
            return result
        } catch {
            mdb_txn_abort(handle)
            throw error
        }
    }
}

/// One transaction of a ``RawLMDBEnvironment``.
struct RawLMDBTransaction {
    let handle: OpaquePointer

    func database(_ name: String) throws -> MDB_dbi {
        var database: MDB_dbi = 0
        try RawLMDBEnvironment.check(mdb_dbi_open(handle, name, UInt32(MDB_CREATE), &database), "mdb_dbi_open")
        return database
    }

    func put(_ database: MDB_dbi, _ key: [UInt8], _ value: [UInt8]) throws {
        let code = key.withUnsafeBytes { keyBytes in
            value.withUnsafeBytes { valueBytes in
                var keyValue = MDB_val(
                    mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                var data = MDB_val(
                    mv_size: valueBytes.count, mv_data: UnsafeMutableRawPointer(mutating: valueBytes.baseAddress))
                return mdb_put(handle, database, &keyValue, &data, 0)
            }
        }
        try RawLMDBEnvironment.check(code, "mdb_put")
    }

    func get(_ database: MDB_dbi, _ key: [UInt8]) throws -> [UInt8]? {
        var data = MDB_val()
        let code = key.withUnsafeBytes { keyBytes in
            var keyValue = MDB_val(
                mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_get(handle, database, &keyValue, &data)
        }
        if code == MDB_NOTFOUND { return nil }
        try RawLMDBEnvironment.check(code, "mdb_get")
        return Array(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    func delete(_ database: MDB_dbi, _ key: [UInt8]) throws {
        let code = key.withUnsafeBytes { keyBytes in
            var keyValue = MDB_val(
                mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_del(handle, database, &keyValue, nil)
        }
        if code != MDB_NOTFOUND { try RawLMDBEnvironment.check(code, "mdb_del") }
    }

    func count(_ database: MDB_dbi) throws -> Int {
        var stat = MDB_stat()
        try RawLMDBEnvironment.check(mdb_stat(handle, database, &stat), "mdb_stat")
        return stat.ms_entries
    }

    /// Visits the keys from the first at or after `start` while `visit` returns `true`.
    func scan(_ database: MDB_dbi, from start: [UInt8], _ visit: ([UInt8], [UInt8]) throws -> Bool) throws {
        var cursor: OpaquePointer?
        try RawLMDBEnvironment.check(mdb_cursor_open(handle, database, &cursor), "mdb_cursor_open")
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val()
        var data = MDB_val()
        var code = start.withUnsafeBytes { startBytes in
            key = MDB_val(mv_size: startBytes.count, mv_data: UnsafeMutableRawPointer(mutating: startBytes.baseAddress))
            return mdb_cursor_get(cursor, &key, &data, start.isEmpty ? MDB_FIRST : MDB_SET_RANGE)
        }
        while code == 0 {
            let keyBytes = Array(UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size))
            guard try visit(keyBytes, Array(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))) else {
                return
            }
            code = mdb_cursor_get(cursor, &key, &data, MDB_NEXT)
        }
        if code != MDB_NOTFOUND { try RawLMDBEnvironment.check(code, "mdb_cursor_get") }
    }
}
