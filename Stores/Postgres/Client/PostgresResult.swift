import CStrataPostgres
import Foundation
import Strata

/// The rows of one statement, read in the binary format. It frees libpq's result when it goes.
final class PostgresResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }

    deinit { PQclear(result) }

    var rowCount: Int { Int(PQntuples(result)) }
    var columnCount: Int { Int(PQnfields(result)) }

    /// How many rows an `INSERT`, `UPDATE` or `DELETE` changed.
    var changedRows: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// The value at `row` and `column`; `nil` when its type is one this client does not read.
    func value(_ row: Int, _ column: Int) -> PostgresValue? {
        if PQgetisnull(result, Int32(row), Int32(column)) == 1 { return .null }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        guard let start = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        return PostgresValue(
            binary: UnsafeRawBufferPointer(start: start, count: length), type: PQftype(result, Int32(column)))
    }

    /// The attribute value of `type` at `row` and `column`, read from libpq's buffer; `nil` when
    /// the column holds something an attribute of that type cannot be read from. Strings and
    /// binary values are copied once, straight from the buffer.
    func attributeValue(_ row: Int, _ column: Int, as type: AttributeType) -> AttributeValue? {
        if PQgetisnull(result, Int32(row), Int32(column)) == 1 { return .null }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        guard let start = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: start, count: length)
        let columnType = PQftype(result, Int32(column))
        switch (type, columnType) {
        case (.string, PostgresValue.TypeOID.bytea):
            return String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self).map { .string($0) }
        case (.binary, PostgresValue.TypeOID.bytea), (.transformable, PostgresValue.TypeOID.bytea):
            return .binary(Data(bytes))
        default:
            return PostgresValue(binary: bytes, type: columnType).flatMap { PostgresValueCodec.decode($0, as: type) }
        }
    }

    /// The integer at `row` and `column`; `nil` when it is null or not an integer.
    func int64(_ row: Int, _ column: Int) -> Int64? { value(row, column)?.int64 }

    /// The text or bytes at `row` and `column` as bytes; `nil` when null.
    func bytes(_ row: Int, _ column: Int) -> [UInt8]? {
        switch value(row, column) {
        case .bytes(let bytes)?: bytes
        case .text(let text)?: Array(text.utf8)
        default: nil
        }
    }
}
