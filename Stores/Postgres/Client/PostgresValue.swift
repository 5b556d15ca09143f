import Foundation

/// A value as it crosses the wire to and from PostgreSQL: every parameter is bound, never
/// spliced into SQL text, and sent in the binary format but for `numeric`, which travels as
/// text.
enum PostgresValue: Sendable, Hashable {
    case null
    case smallint(Int16)
    case integer(Int32)
    case bigint(Int64)
    case real(Float)
    case double(Double)
    case boolean(Bool)
    case bytes([UInt8])
    case text(String)
    /// A `numeric`, as its decimal text.
    case numeric(String)
    case uuid(UUID)
    /// An array, as its text form (`{1,2,3}`), typed by a cast in the SQL (`$1::int8[]`).
    case array(String)

    /// PostgreSQL's type OIDs (`pg_type.oid`), which are fixed for built-in types.
    enum TypeOID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
        static let varchar: UInt32 = 1043
        static let numeric: UInt32 = 1700
        static let uuid: UInt32 = 2950
    }

    /// The parameter's type OID (0 lets the server infer it), format (1 binary, 0 text) and bytes.
    var wire: (type: UInt32, format: Int32, bytes: [UInt8]?) {
        switch self {
        case .null: (0, 1, nil)
        case .smallint(let n): (TypeOID.int2, 1, Self.bigEndian(UInt16(bitPattern: n)))
        case .integer(let n): (TypeOID.int4, 1, Self.bigEndian(UInt32(bitPattern: n)))
        case .bigint(let n): (TypeOID.int8, 1, Self.bigEndian(UInt64(bitPattern: n)))
        case .real(let n): (TypeOID.float4, 1, Self.bigEndian(n.bitPattern))
        case .double(let n): (TypeOID.float8, 1, Self.bigEndian(n.bitPattern))
        case .boolean(let flag): (TypeOID.bool, 1, [flag ? 1 : 0])
        case .bytes(let bytes): (TypeOID.bytea, 1, bytes)
        case .text(let text): (TypeOID.text, 1, Array(text.utf8))
        case .numeric(let text): (TypeOID.numeric, 0, Array(text.utf8))
        case .uuid(let uuid): (TypeOID.uuid, 1, withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case .array(let text): (0, 0, Array(text.utf8))
        }
    }

    /// Decodes a column value the server sent in the binary format (`numeric` cast to text by
    /// the query); `nil` for a type this client does not read.
    init?(binary bytes: UnsafeRawBufferPointer, type: UInt32) {
        func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard bytes.count == MemoryLayout<T>.size else { return nil }
            return bytes.reduce(T.zero) { $0 << 8 | T(truncatingIfNeeded: $1) }
        }
        switch type {
        case TypeOID.int2:
            guard let n = integer(UInt16.self) else { return nil }
            self = .smallint(Int16(bitPattern: n))
        case TypeOID.int4:
            guard let n = integer(UInt32.self) else { return nil }
            self = .integer(Int32(bitPattern: n))
        case TypeOID.int8:
            guard let n = integer(UInt64.self) else { return nil }
            self = .bigint(Int64(bitPattern: n))
        case TypeOID.float4:
            guard let n = integer(UInt32.self) else { return nil }
            self = .real(Float(bitPattern: n))
        case TypeOID.float8:
            guard let n = integer(UInt64.self) else { return nil }
            self = .double(Double(bitPattern: n))
        case TypeOID.bool:
            guard bytes.count == 1 else { return nil }
            self = .boolean(bytes[0] != 0)
        case TypeOID.bytea: self = .bytes(Array(bytes))
        case TypeOID.text, TypeOID.varchar: self = .text(String(decoding: bytes, as: UTF8.self))
        case TypeOID.uuid:
            guard bytes.count == 16 else { return nil }
            var raw = UUID().uuid
            withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: bytes) }
            self = .uuid(UUID(uuid: raw))
        default: return nil
        }
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// The value as a 64-bit integer, for keys, versions and counts.
    var int64: Int64? {
        switch self {
        case .smallint(let n): Int64(n)
        case .integer(let n): Int64(n)
        case .bigint(let n): n
        default: nil
        }
    }
}

extension PostgresValue {
    /// An `int8[]` parameter, sent as its text form (`{1,2,3}`).
    static func bigintArray(_ values: [Int64]) -> PostgresValue {
        .array("{" + values.map(String.init).joined(separator: ",") + "}")
    }

    /// A `text[]` parameter, sent as its text form with every element quoted (`{"a","b"}`).
    static func textArray(_ values: [String]) -> PostgresValue {
        let quoted = values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        return .array("{" + quoted.joined(separator: ",") + "}")
    }
}
