import CBenchPostgres
import Foundation

/// A thin handle on one libpq connection for the raw floor: prepared statements, values bound
/// and read in the binary format, and nothing else.
final class RawPostgresConnection {
    private let handle: OpaquePointer

    /// Connects to the database at `url` (its query, such as a store's `schema`, left out).
    init(url: URL) throws {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        guard let conninfo = components?.string, let handle = PQconnectdb(conninfo) else {
            throw FloorError(description: "cannot connect to \(url)")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw FloorError(description: "cannot connect to \(url): \(message)")
        }
        self.handle = handle
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Runs `sql`, one or more statements without parameters.
    func execute(_ sql: String) throws {
        try check(PQexec(handle, sql), sql).clear()
    }

    /// Prepares `sql` as the statement `name`.
    func prepare(_ name: String, _ sql: String) throws {
        try check(PQprepare(handle, name, sql, 0, nil), sql).clear()
    }

    /// Runs the prepared statement `name` with `parameters` (binary values, `nil` for null)
    /// and returns its rows in the binary format.
    func run(_ name: String, _ parameters: [[UInt8]?] = []) throws -> RawPostgresRows {
        let buffers = parameters.map { bytes -> UnsafeMutablePointer<CChar>? in
            guard let bytes else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress {
                    UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count)
                }
            }
            return buffer
        }
        defer { for buffer in buffers { buffer?.deallocate() } }
        let values = buffers.map { UnsafePointer($0) }
        let lengths = parameters.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        return try check(
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1), name)
    }

    private func check(_ result: OpaquePointer?, _ what: String) throws -> RawPostgresRows {
        guard let result else { throw FloorError(description: "\(what): \(String(cString: PQerrorMessage(handle)))") }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = String(cString: PQresultErrorMessage(result))
            PQclear(result)
            throw FloorError(description: "\(what): \(message)")
        }
        return RawPostgresRows(result)
    }

    /// `value` as a binary `int8` parameter.
    static func int8(_ value: Int64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    /// `value` as a binary `float8` parameter.
    static func float8(_ value: Double) -> [UInt8] { int8(Int64(bitPattern: value.bitPattern)) }
}

/// The rows of one statement, read in the binary format; cleared by ``clear()`` or when released.
final class RawPostgresRows {
    private var result: OpaquePointer?

    init(_ result: OpaquePointer) { self.result = result }

    deinit { clear() }

    func clear() {
        if let result { PQclear(result) }
        result = nil
    }

    var count: Int { Int(PQntuples(result)) }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    func int64(_ row: Int, _ column: Int) -> Int64 {
        var value: Int64 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: raw(row, column)) }
        return Int64(bigEndian: value)
    }

    func double(_ row: Int, _ column: Int) -> Double { Double(bitPattern: UInt64(bitPattern: int64(row, column))) }

    func bool(_ row: Int, _ column: Int) -> Bool { raw(row, column).first == 1 }

    func string(_ row: Int, _ column: Int) -> String { String(decoding: raw(row, column), as: UTF8.self) }

    func bytes(_ row: Int, _ column: Int) -> [UInt8] { Array(raw(row, column)) }

    /// The item in row `row` of `SELECT id, number, name, score, stamp, flag, blob, parent`.
    func item(_ row: Int) -> ItemRecord {
        ItemRecord(
            id: int64(row, 0), number: int64(row, 1), name: string(row, 2), score: double(row, 3),
            stamp: double(row, 4), flag: bool(row, 5), blob: bytes(row, 6),
            parent: isNull(row, 7) ? nil : int64(row, 7), children: [])
    }

    private func raw(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(
            start: PQgetvalue(result, Int32(row), Int32(column)),
            count: Int(PQgetlength(result, Int32(row), Int32(column))))
    }
}
