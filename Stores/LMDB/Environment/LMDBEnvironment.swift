import CStrataLMDB
import Foundation
import Strata

/// One open liblmdb environment: a single data file plus its `-lock` file (`MDB_NOSUBDIR`).
///
/// Threading follows liblmdb's rules. The environment is opened with `MDB_NOTLS`, so a read
/// transaction is not tied to a thread's slot and many threads read at once; every transaction
/// begins and ends on the thread that calls ``read(_:)`` or ``write(_:)``, but for the read
/// transactions query generations hold (``beginHeldRead()``), which move between threads one
/// call at a time, as `MDB_NOTLS` allows. Writers are serialised by ``writerLock`` (liblmdb's
/// own writer mutex does the same across processes). Every transaction, and every call in a
/// held one, holds ``mapLock`` shared; growing the map holds it exclusively, since
/// `mdb_env_set_mapsize` remaps the file under every reader. A held read transaction may stay
/// open across a remap: between calls it keeps only its snapshot's page numbers and reader
/// slot, never a pointer into the map, and every page of its snapshot lies inside the new,
/// larger map.
final class LMDBEnvironment: @unchecked Sendable {
    // Safe: liblmdb's environment handle may be shared by threads when opened with MDB_NOTLS;
    // its transactions never leave the call that opened them, writers are serialised by
    // `writerLock`, and the map is resized only under `mapLock` held exclusively.
    let handle: OpaquePointer
    /// The data file's path.
    let path: String
    /// Whether the environment was opened with `MDB_RDONLY`.
    let isReadOnly: Bool
    /// Whether commits skip the flush to disk (`MDB_NOSYNC`).
    let hasRelaxedDurability: Bool
    private let mapLock = LMDBReadWriteLock()
    private let writerLock = NSLock()
    private let databaseLock = NSLock()
    /// How many read transactions query generations hold.
    private let heldReads = Locked(0)
    /// The most read transactions query generations may hold at once: half the reader table,
    /// so that the other half is left to the calls that read and to other processes.
    let maximumHeldReads: Int

    /// The most named databases an environment holds: 6 of Strata's own plus one per root entity.
    static let maximumDatabases: UInt32 = 256

    /// Opens the environment whose data file is `path`, creating the file (and its `-lock`
    /// file) when missing, and clears the reader slots of processes that died.
    ///
    /// - Parameter mapSize: The map's size in bytes for a new file; an existing file keeps
    ///   the size recorded in it (liblmdb raises it to the file's size when smaller).
    init(path: String, readOnly: Bool, relaxedDurability: Bool, mapSize: Int?) throws(LMDBError) {
        var environment: OpaquePointer?
        try LMDBError.check(mdb_env_create(&environment), "mdb_env_create")
        guard let environment else { throw LMDBError(code: ENOMEM, call: "mdb_env_create") }
        do throws(LMDBError) {
            try LMDBError.check(mdb_env_set_maxdbs(environment, Self.maximumDatabases), "mdb_env_set_maxdbs")
            if let mapSize { try LMDBError.check(mdb_env_set_mapsize(environment, mapSize), "mdb_env_set_mapsize") }
            var flags = UInt32(MDB_NOSUBDIR) | UInt32(MDB_NOTLS)
            if readOnly { flags |= UInt32(MDB_RDONLY) }
            if relaxedDurability { flags |= UInt32(MDB_NOSYNC) }
            try LMDBError.check(mdb_env_open(environment, path, flags, 0o644), "mdb_env_open")
            var dead: Int32 = 0
            try LMDBError.check(mdb_reader_check(environment, &dead), "mdb_reader_check")
        } catch {
            mdb_env_close(environment)
            throw error
        }
        var readers: UInt32 = 0
        mdb_env_get_maxreaders(environment, &readers)
        self.maximumHeldReads = max(Int(readers) / 2, 1)
        self.handle = environment
        self.path = path
        self.isReadOnly = readOnly
        self.hasRelaxedDurability = relaxedDurability
    }

    deinit { mdb_env_close(handle) }

    /// The number of the last committed write transaction, by this or any other process:
    /// it changes with every commit and is read without a transaction.
    var lastTransactionID: Int {
        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        return info.me_last_txnid
    }

    /// The map's current size in bytes.
    var mapSize: Int {
        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        return info.me_mapsize
    }

    /// Runs `body` in one read transaction, so that it sees one committed state of the file.
    /// With `keepingDatabases`, the transaction is committed rather than abandoned, so that
    /// the named databases it opened stay open for later transactions; such calls are
    /// serialised, as liblmdb asks of `mdb_dbi_open`.
    func read<T>(keepingDatabases: Bool = false, _ body: (LMDBTransaction) throws -> T) throws -> T {
        if keepingDatabases { databaseLock.lock() }
        defer { if keepingDatabases { databaseLock.unlock() } }
        return try retrying { try transaction(flags: UInt32(MDB_RDONLY), commit: keepingDatabases, body) }
    }

    /// Begins a read transaction that outlives the call, for a query generation; `nil` when
    /// query generations hold ``maximumHeldReads`` already. End it with ``endHeldRead(_:)``.
    func beginHeldRead() throws -> OpaquePointer? {
        let taken = heldReads.withLock { count in
            guard count < maximumHeldReads else { return false }
            count += 1
            return true
        }
        guard taken else { return nil }
        do {
            return try retrying {
                try mapLock.withShared {
                    var handle: OpaquePointer?
                    try LMDBError.check(mdb_txn_begin(self.handle, nil, UInt32(MDB_RDONLY), &handle), "mdb_txn_begin")
                    guard let handle else { throw LMDBError(code: ENOMEM, call: "mdb_txn_begin") }
                    return handle
                }
            }
        } catch {
            heldReads.withLock { $0 -= 1 }
            throw error
        }
    }

    /// Runs `body` in the held read transaction `handle`; calls on one handle must not overlap.
    func read<T>(inHeld handle: OpaquePointer, _ body: (LMDBTransaction) throws -> T) throws -> T {
        try mapLock.withShared { try body(LMDBTransaction(handle: handle)) }
    }

    /// Ends the held read transaction `handle`, freeing its reader slot.
    func endHeldRead(_ handle: OpaquePointer) {
        mapLock.withShared { mdb_txn_abort(handle) }
        heldReads.withLock { $0 -= 1 }
    }

    /// Runs `body` in one write transaction and commits it. When the map is full, the
    /// transaction is abandoned, the map doubled, and `body` run again in a new transaction,
    /// so `body` must do nothing outside the transaction that it cannot repeat. With
    /// `keepingDatabases`, `body` may open named databases: such calls are serialised with
    /// the reads that do, as liblmdb asks of `mdb_dbi_open`.
    ///
    /// A write is refused with ``StoreError/Code/inUse`` when the path no longer names the file
    /// the environment opened: another program replaced or removed it, and liblmdb would
    /// write to a file no one will open again.
    func write<T>(keepingDatabases: Bool = false, _ body: (LMDBTransaction) throws -> T) throws -> T {
        if keepingDatabases { databaseLock.lock() }
        defer { if keepingDatabases { databaseLock.unlock() } }
        writerLock.lock()
        defer { writerLock.unlock() }
        try checkFileInPlace()
        return try retrying { try transaction(flags: 0, commit: true, body) }
    }

    /// Throws when ``path`` no longer names the data file the environment has open.
    private func checkFileInPlace() throws {
        var descriptor: mdb_filehandle_t = -1
        var opened = stat()
        var named = stat()
        guard mdb_env_get_fd(handle, &descriptor) == 0, fstat(descriptor, &opened) == 0 else { return }
        guard stat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino else {
            throw StoreError(
                code: .inUse,
                message: "The LMDB store file '\(path)' was replaced or removed by another program while the store "
                    + "was open; the save would go to a file no one opens again. Remove the store and open the file "
                    + "again.")
        }
    }

    /// Runs `attempt` until it does not fail for want of map: growing the map after
    /// `MDB_MAP_FULL`, taking another process's size after `MDB_MAP_RESIZED`.
    private func retrying<T>(_ attempt: () throws -> T) throws -> T {
        while true {
            do {
                return try attempt()
            } catch let error as LMDBError where error.isMapFull {
                try grow()
            } catch let error as LMDBError where error.isMapResized {
                try adoptMapSize()
            }
        }
    }

    /// Runs `body` in a transaction begun with `flags`, committing it (or, when not
    /// `commit`, abandoning it) afterwards; a failure abandons it.
    private func transaction<T>(flags: UInt32, commit: Bool, _ body: (LMDBTransaction) throws -> T) throws -> T {
        try mapLock.withShared {
            var handle: OpaquePointer?
            try LMDBError.check(mdb_txn_begin(self.handle, nil, flags, &handle), "mdb_txn_begin")
            guard let handle else { throw LMDBError(code: ENOMEM, call: "mdb_txn_begin") }
            let result: T
            do {
                result = try body(LMDBTransaction(handle: handle))
            } catch {
                mdb_txn_abort(handle)
                throw error
            }
            if commit {
                try LMDBError.check(mdb_txn_commit(handle), "mdb_txn_commit")
            } else {
                mdb_txn_abort(handle)
            }
            return result
        }
    }

    /// Doubles the map.
    private func grow() throws {
        try mapLock.withExclusive {
            try LMDBError.check(mdb_env_set_mapsize(handle, mapSize * 2), "mdb_env_set_mapsize")
        }
    }

    /// Takes the map size another process set.
    private func adoptMapSize() throws {
        try mapLock.withExclusive { try LMDBError.check(mdb_env_set_mapsize(handle, 0), "mdb_env_set_mapsize") }
    }
}
