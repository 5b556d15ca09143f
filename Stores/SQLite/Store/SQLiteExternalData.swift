import Foundation
import Strata

/// The external binary data of an SQLite store (``ExternalBinaryData``) as its columns hold it:
/// a marked value is a BLOB, null stays `NULL`.
struct SQLiteExternalData: Sendable {
    let files: ExternalBinaryData

    init(storePath: String) {
        files = ExternalBinaryData(storePath: storePath)
    }

    /// The folder holding the files.
    var directory: URL { files.directory }

    /// The name of the file `stored` refers to; `nil` for a value kept in its column, or null.
    ///
    /// - Parameter place: names the store, entity, attribute and object, for errors.
    /// - Throws: ``StoreError`` with code `corrupt` when `stored` is marked as a file's name but
    ///   names no file a store writes.
    static func fileName(in stored: SQLiteValue, place: @autoclosure () -> String) throws -> ExternalDataFileName? {
        guard case .blob(let bytes) = stored else { return nil }
        return try ExternalBinaryData.fileName(inMarked: bytes, place: place())
    }

    /// The value a column of an external-storage attribute holds.
    ///
    /// - Parameter place: names the store, entity, attribute and object, for errors.
    func value(in stored: SQLiteValue, place: @autoclosure () -> String) throws -> AttributeValue {
        switch stored {
        case .null: return .null
        case .blob(let bytes): return .binary(try files.value(inMarked: bytes, place: place()))
        default:
            throw StoreError(code: .corrupt, message: "\(place()) holds \(stored), which is not external binary data.")
        }
    }

    /// The column value of `value`, replacing the column's `previous` value (see
    /// ``ExternalBinaryData/marked(_:replacing:writes:place:)``).
    ///
    /// - Parameter place: names the store, entity, attribute and object, for errors.
    func columnValue(
        for value: AttributeValue, previous: SQLiteValue?, writes: ExternalBinaryDataWrites,
        place: @autoclosure () -> String
    ) throws -> SQLiteValue {
        var previousBytes: [UInt8]?
        if case .blob(let bytes)? = previous { previousBytes = bytes }
        guard case .binary(let data) = value else {
            try files.clear(previousBytes, writes: writes, place: place())
            return SQLiteValueCodec.encode(value)
        }
        return .blob(try files.marked(data, replacing: previousBytes, writes: writes, place: place()))
    }
}
