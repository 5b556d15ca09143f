import Foundation

extension StoreType {
    /// How many bytes detection reads from the start of a file.
    private static let detectionPrefixLength = 4096
    /// The first 16 bytes of every SQLite database file.
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)
    /// The first 8 bytes of every binary store file (`BinaryStoreFormat.magic`).
    private static let binaryMagic: [UInt8] = [0x89, 0x53, 0x54, 0x52, 0x42, 0x49, 0x4E, 0x0A]
    /// liblmdb's `MDB_MAGIC`, stored little-endian right after the first meta page's 16-byte header.
    private static let lmdbMagic: [UInt8] = [0xDE, 0xC0, 0xEF, 0xBE]
    /// liblmdb's `P_META` page flag, at byte 10 of the first page.
    private static let lmdbMetaFlag: UInt8 = 0x08

    /// The name of the built-in store type whose file is at `url`, read from the file's first
    /// bytes: `"SQLite"` for an SQLite database, `"LMDB"` for an LMDB data file, `"XML"` for an
    /// XML document whose root element is `<database>`, `"Binary"` for a binary store.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/io`` when the file cannot be read,
    ///   or ``StoreError/Code/unknownStoreType`` naming the file and its first bytes when it is
    ///   none of these.
    public static func detectTypeName(ofFileAt url: URL) throws -> String {
        let prefix = try readPrefix(of: url)
        if prefix.starts(with: sqliteHeader) { return "SQLite" }
        if prefix.starts(with: binaryMagic) { return "Binary" }
        if prefix.count >= 20, prefix[10] & lmdbMetaFlag != 0, Array(prefix[16..<20]) == lmdbMagic { return "LMDB" }
        if rootElementName(of: prefix) == "database" { return "XML" }
        let shown = prefix.prefix(16).map { String(format: "%02x", $0) }.joined(separator: " ")
        throw StoreError(
            code: .unknownStoreType,
            message: "'\(url.path)' is not a store file: it starts with "
                + (prefix.isEmpty ? "nothing (the file is empty)" : "bytes \(shown)")
                + ", not an SQLite header, an LMDB meta page, an XML <database> root or the binary store magic.")
    }

    private static func readPrefix(of url: URL) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw StoreError(code: .io, message: "There is no file at '\(url.path)'.")
        }
        guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: url.path) else {
            throw StoreError(code: .io, message: "'\(url.path)' cannot be read as a file.")
        }
        defer { try? handle.close() }
        do {
            return Array(try handle.read(upToCount: detectionPrefixLength) ?? Data())
        } catch {
            throw StoreError(code: .io, message: "Cannot read '\(url.path)': \(error).", underlying: error)
        }
    }

    /// The name of the first element of an XML document's prefix, skipping a byte order mark,
    /// white space, the declaration, processing instructions, comments and the document type.
    private static func rootElementName(of prefix: [UInt8]) -> String? {
        var rest = Substring(String(decoding: prefix, as: UTF8.self))
        if rest.hasPrefix("\u{FEFF}") { rest.removeFirst() }
        while true {
            rest = rest.drop { $0.isWhitespace }
            guard rest.hasPrefix("<") else { return nil }
            if rest.hasPrefix("<?") || rest.hasPrefix("<!") {
                let terminator = rest.hasPrefix("<!--") ? "-->" : ">"
                guard let end = rest.range(of: terminator) else { return nil }
                rest = rest[end.upperBound...]
                continue
            }
            let name = rest.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name.isEmpty ? nil : String(name)
        }
    }
}
