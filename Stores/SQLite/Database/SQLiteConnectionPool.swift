import Foundation

/// The connections of one store file: one writer and up to ``maximumReaders`` readers, which
/// in WAL mode read while the writer writes. With one reader allowed, reads share the writer
/// and everything runs one at a time. Connections open when first needed; ``close()`` closes
/// them all, and the next use opens them again.
///
/// `@unchecked Sendable`: the writer is used and replaced only while `writerLock` is held; the
/// idle readers, the count of open ones and the generation only while `readers` is locked; a
/// checked-out reader by the one thread that checked it out, until it is returned; a reader
/// held by a query generation only under that generation's lock; the watcher only while
/// `watcherLock` is held.
final class SQLiteConnectionPool: @unchecked Sendable {
    /// The most readers the pool opens.
    let maximumReaders: Int
    private var writer: SQLiteConnection?
    private let writerLock = NSLock()
    private let readers = NSCondition()
    private var idleReaders: [SQLiteConnection] = []
    private var openReaders = 0
    /// How many times the pool was closed: a reader checked out before a close is closed when
    /// it comes back instead of being kept.
    private var generation = 0
    /// The connection that only watches the file for commits, once opened.
    private var watcher: SQLiteConnection?
    private let watcherLock = NSLock()
    private let openWriter: () throws -> SQLiteConnection
    private let openReader: () throws -> SQLiteConnection
    /// Told how long a read waited for a reader, when every one was busy.
    private let waited: (@Sendable (_ seconds: Double) -> Void)?

    /// A pool whose writer is `writer` (opened again by `openWriter` after a close) and whose
    /// readers `openReader` opens when needed; `waited` learns how long a read waited for a
    /// reader.
    init(
        writer: SQLiteConnection, maximumReaders: Int, openWriter: @escaping () throws -> SQLiteConnection,
        openReader: @escaping () throws -> SQLiteConnection, waited: (@Sendable (_ seconds: Double) -> Void)? = nil
    ) {
        self.writer = writer
        self.maximumReaders = maximumReaders
        self.openWriter = openWriter
        self.openReader = openReader
        self.waited = waited
    }

    /// How many readers the pool has opened so far.
    var openReaderCount: Int {
        readers.lock()
        defer { readers.unlock() }
        return openReaders
    }

    deinit {
        // Readers close before the writer: the last connection to close removes the `-wal`
        // and `-shm` files, which only a connection that may write can do.
        idleReaders.removeAll()
    }

    /// Closes every idle connection, readers first, and the writer once no save is using it;
    /// a reader in use closes when it is returned. The next read or write opens connections
    /// again.
    func close() {
        readers.lock()
        let closing = idleReaders
        idleReaders.removeAll()
        openReaders -= closing.count
        generation += 1
        readers.broadcast()
        readers.unlock()
        withExtendedLifetime(closing) {}
        watcherLock.lock()
        watcher = nil
        watcherLock.unlock()
        writerLock.lock()
        writer = nil
        writerLock.unlock()
    }

    /// Runs `body` with the writer, waiting while another thread has it.
    func withWriter<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        if let writer { return try body(writer) }
        let opened = try openWriter()
        writer = opened
        return try body(opened)
    }

    /// Runs `body` with the connection kept for watching the file: a reader that never reads
    /// rows or writes, so that its `PRAGMA data_version` moves with every commit made by any
    /// other connection, this store's writer included. Opened when first needed.
    func withWatcher<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        watcherLock.lock()
        defer { watcherLock.unlock() }
        if let watcher { return try body(watcher) }
        let opened = try openReader()
        watcher = opened
        return try body(opened)
    }

    /// Runs `body` with a reader, waiting while every reader the pool may open is busy.
    func withReader<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if maximumReaders <= 1 { return try withWriter(body) }
        let (reader, checkedOutIn) = try checkOutReader()
        defer { checkIn(reader, checkedOutIn: checkedOutIn) }
        return try body(reader)
    }

    /// A reader for a query generation to hold for as long as it lives, outside the readers'
    /// count so that held connections never keep reads waiting: an idle reader when there is
    /// one, else a new one. Hand it back with ``checkInHeld(_:checkedOutIn:)``.
    func checkOutHeld() throws -> (SQLiteConnection, generation: Int) {
        readers.lock()
        let current = generation
        if let reader = idleReaders.popLast() {
            openReaders -= 1
            readers.unlock()
            return (reader, current)
        }
        readers.unlock()
        return (try openReader(), current)
    }

    /// Takes back a connection a query generation held: it joins the idle readers when the
    /// pool has room for it and was not closed since, and closes otherwise.
    func checkInHeld(_ reader: SQLiteConnection, checkedOutIn checkedOutGeneration: Int) {
        readers.lock()
        defer { readers.unlock() }
        guard checkedOutGeneration == generation, maximumReaders > 1, openReaders < maximumReaders else { return }
        openReaders += 1
        idleReaders.append(reader)
        readers.signal()
    }

    private func checkOutReader() throws -> (SQLiteConnection, generation: Int) {
        readers.lock()
        var waitedSeconds: Double?
        if idleReaders.isEmpty && openReaders >= maximumReaders {
            let start = DispatchTime.now().uptimeNanoseconds
            while idleReaders.isEmpty && openReaders >= maximumReaders { readers.wait() }
            waitedSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        // Told once the lock is let go.
        defer { if let waitedSeconds { waited?(waitedSeconds) } }
        let current = generation
        if let reader = idleReaders.popLast() {
            readers.unlock()
            return (reader, current)
        }
        openReaders += 1
        readers.unlock()
        do {
            return (try openReader(), current)
        } catch {
            readers.lock()
            openReaders -= 1
            readers.signal()
            readers.unlock()
            throw error
        }
    }

    private func checkIn(_ reader: SQLiteConnection, checkedOutIn checkedOutGeneration: Int) {
        readers.lock()
        defer { readers.unlock() }
        if checkedOutGeneration == generation {
            idleReaders.append(reader)
        } else {
            openReaders -= 1
        }
        readers.signal()
    }
}
