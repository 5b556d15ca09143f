import CStrataLMDB
import Foundation
import StrataLMDB

/// Checks the input as an LMDB data file with the store's page check and, when the check
/// passes, reads every record of every database through liblmdb: the check promises that a
/// file it passes cannot send liblmdb outside the file or a page.
enum LMDBFileFuzzing {
    static func run(_ input: Data, in folder: URL) throws {
        let file = folder.appendingPathComponent("input.lmdb")
        try ModelFuzzing.write(input, to: file)
        try LMDBFileCheck.check(path: file.path)
        readEveryRecord(file.path)
    }

    /// Opens the file read-only without a lock file and walks the main database and every
    /// named database it lists; liblmdb's own errors are answers, not findings.
    private static func readEveryRecord(_ path: String) {
        var environment: OpaquePointer?
        guard mdb_env_create(&environment) == 0, let environment else { return }
        defer { mdb_env_close(environment) }
        mdb_env_set_maxdbs(environment, 64)
        let flags = UInt32(MDB_NOSUBDIR) | UInt32(MDB_RDONLY) | UInt32(MDB_NOLOCK) | UInt32(MDB_NOTLS)
        guard mdb_env_open(environment, path, flags, 0o644) == 0 else { return }
        var transaction: OpaquePointer?
        guard mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &transaction) == 0, let transaction else { return }
        defer { mdb_txn_abort(transaction) }
        var main: MDB_dbi = 0
        guard mdb_dbi_open(transaction, nil, 0, &main) == 0 else { return }
        for name in keys(of: main, in: transaction) {
            guard !name.contains(0) else { continue }
            var database: MDB_dbi = 0
            let opened = (name + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { mdb_dbi_open(transaction, $0.baseAddress, 0, &database) }
            }
            if opened == 0 { _ = keys(of: database, in: transaction) }
        }
    }

    /// Every key of `database`, reading each value's bytes on the way.
    private static func keys(of database: MDB_dbi, in transaction: OpaquePointer) -> [[UInt8]] {
        var cursor: OpaquePointer?
        guard mdb_cursor_open(transaction, database, &cursor) == 0, let cursor else { return [] }
        defer { mdb_cursor_close(cursor) }
        var keys: [[UInt8]] = []
        var key = MDB_val()
        var value = MDB_val()
        var operation = MDB_FIRST
        var checksum: UInt8 = 0
        while mdb_cursor_get(cursor, &key, &value, operation) == 0 {
            keys.append(Array(UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size)))
            for byte in UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size) { checksum ^= byte }
            operation = MDB_NEXT
        }
        keep(checksum)
        return keys
    }

    /// Uses `value` where the optimiser cannot see, so the reads that made it happen.
    @_optimize(none)
    private static func keep(_ value: UInt8) {}
}
