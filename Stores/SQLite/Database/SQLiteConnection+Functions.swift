import CStrataSQLite

/// The body of a scalar SQL function written in Swift: from its arguments to its result, or
/// the failure that stops the statement calling it.
typealias SQLiteFunctionBody = (SQLiteFunctionArguments) throws(SQLiteFunctionFailure) -> SQLiteValue

/// The arguments of one call of a scalar SQL function, read as they are used; valid only
/// during the call.
struct SQLiteFunctionArguments: RandomAccessCollection {
    fileprivate let values: UnsafeMutablePointer<OpaquePointer?>?
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> SQLiteValue {
        SQLiteValue(argument: values?[position])
    }
}

/// A scalar SQL function's failure: the statement calling it stops with `SQLITE_ERROR` and
/// this message.
struct SQLiteFunctionFailure: Error {
    let message: String
}

/// Keeps a function's body alive while SQLite holds it.
private final class SQLiteFunctionBox {
    let body: SQLiteFunctionBody
    init(_ body: @escaping SQLiteFunctionBody) { self.body = body }
}

extension SQLiteConnection {
    /// Defines the scalar function `name` with `argumentCount` arguments (-1 for any number) on
    /// this connection; a deterministic one gives the same result for the same arguments, so
    /// SQLite may compute it once. Unless `isCalledFromSchema`, only SQL that Strata runs may
    /// call it (`SQLITE_DIRECTONLY`): never a trigger, view or index of a file, whose schema is
    /// data. Calls `sqlite3_create_function_v2`.
    func defineFunction(
        _ name: String, argumentCount: Int32, isDeterministic: Bool = true, isCalledFromSchema: Bool = false,
        _ body: @escaping SQLiteFunctionBody
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(SQLiteFunctionBox(body)).toOpaque()
        let flags =
            SQLITE_UTF8 | (isDeterministic ? SQLITE_DETERMINISTIC : 0) | (isCalledFromSchema ? 0 : SQLITE_DIRECTONLY)
        let resultCode = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, box,
            { context, count, arguments in
                guard let context, let userData = sqlite3_user_data(context) else { return }
                let box = Unmanaged<SQLiteFunctionBox>.fromOpaque(userData).takeUnretainedValue()
                let values = SQLiteFunctionArguments(values: arguments, count: Int(count))
                do throws(SQLiteFunctionFailure) {
                    SQLiteConnection.setResult(try box.body(values), of: context)
                } catch {
                    sqlite3_result_error(context, error.message, -1)
                }
            }, nil, nil,
            { userData in
                guard let userData else { return }
                Unmanaged<SQLiteFunctionBox>.fromOpaque(userData).release()
            })
        guard resultCode == SQLITE_OK else {
            throw SQLiteError(resultCode: resultCode, connection: handle, sql: "function \(name)")
        }
    }

    private static func setResult(_ value: SQLiteValue, of context: OpaquePointer) {
        switch value {
        case .null: sqlite3_result_null(context)
        case .integer(let number): sqlite3_result_int64(context, number)
        case .real(let number): sqlite3_result_double(context, number)
        case .text(let text):
            sqlite3_result_text64(
                context, text, UInt64(text.utf8.count), strata_sqlite_transient(), UInt8(SQLITE_UTF8))
        case .blob(let bytes):
            bytes.withUnsafeBytes { buffer in
                sqlite3_result_blob64(
                    context, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count),
                    strata_sqlite_transient())
            }
        }
    }
}

extension SQLiteValue {
    /// The value of a function argument (`sqlite3_value *`). Calls `sqlite3_value_*`.
    init(argument: OpaquePointer?) {
        guard let argument else {
            self = .null
            return
        }
        switch sqlite3_value_type(argument) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(argument))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(argument))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(argument))
            guard let text = sqlite3_value_text(argument) else {
                self = .text("")
                return
            }
            self = .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(argument))
            guard count > 0, let bytes = sqlite3_value_blob(argument) else {
                self = .blob([])
                return
            }
            self = .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: self = .null
        }
    }
}
