import Foundation

/// The connections of one store file: one writer and up to ``maximumReaders`` readers, which
/// in WAL mode read while the writer writes. With one reader allowed, reads share the writer
/// and everything runs one at a time.
///
/// `@unchecked Sendable`: the writer is used only while `writerLock` is held; the idle readers
/// and the count of open ones only while `readers` is locked; a checked-out reader by the one
/// thread that checked it out, until it is returned.
final class SQLiteConnectionPool: @unchecked Sendable {
    /// The most readers the pool opens.
    let maximumReaders: Int
    private let writer: SQLiteConnection
    private let writerLock = NSLock()
    private let readers = NSCondition()
    private var idleReaders: [SQLiteConnection] = []
    private var openReaders = 0
    private let openReader: () throws -> SQLiteConnection

    /// A pool whose writer is `writer` and whose readers `openReader` opens when needed.
    init(writer: SQLiteConnection, maximumReaders: Int, openReader: @escaping () throws -> SQLiteConnection) {
        self.writer = writer
        self.maximumReaders = maximumReaders
        self.openReader = openReader
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

    /// Runs `body` with the writer, waiting while another thread has it.
    func withWriter<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        return try body(writer)
    }

    /// Runs `body` with a reader, waiting while every reader the pool may open is busy.
    func withReader<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if maximumReaders <= 1 { return try withWriter(body) }
        let reader = try checkOutReader()
        defer { checkIn(reader) }
        return try body(reader)
    }

    private func checkOutReader() throws -> SQLiteConnection {
        readers.lock()
        while idleReaders.isEmpty && openReaders >= maximumReaders { readers.wait() }
        if let reader = idleReaders.popLast() {
            readers.unlock()
            return reader
        }
        openReaders += 1
        readers.unlock()
        do {
            return try openReader()
        } catch {
            readers.lock()
            openReaders -= 1
            readers.signal()
            readers.unlock()
            throw error
        }
    }

    private func checkIn(_ reader: SQLiteConnection) {
        readers.lock()
        idleReaders.append(reader)
        readers.signal()
        readers.unlock()
    }
}
