import Foundation

extension StoreType {
    /// How many bytes identification reads from the start of a file.
    static let recognitionPrefixLength = 4096

    /// The one of `types` whose store is the file at `url`, told from the file's first bytes
    /// by each type's header check (``recognizes(prefix:)``), in the order given.
    ///
    /// ```swift
    /// let type = try StoreType.identify(fileAt: url, among: StoreType.builtInFileTypes)
    /// ```
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/io`` when the file cannot be read,
    ///   or ``StoreError/Code/unknownStoreType`` naming the file, its first bytes and the types
    ///   asked when none of them recognises it.
    public static func identify(fileAt url: URL, among types: [StoreType]) throws -> StoreType {
        let prefix = try readPrefix(of: url)
        if let type = types.first(where: { $0.recognizes(prefix: prefix) }) { return type }
        let shown = prefix.prefix(16).map { String(format: "%02x", $0) }.joined(separator: " ")
        throw StoreError(
            code: .unknownStoreType,
            message: "'\(url.path)' is not a store file of any of the types "
                + types.map(\.name).joined(separator: ", ") + ": it starts with "
                + (prefix.isEmpty ? "nothing (the file is empty)" : "bytes \(shown)") + ".")
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
            return Array(try handle.read(upToCount: recognitionPrefixLength) ?? Data())
        } catch {
            throw StoreError(code: .io, message: "Cannot read '\(url.path)': \(error).", underlying: error)
        }
    }
}

extension PersistentStoreCoordinator {
    /// The registered store type whose store is the file at `url`, told from its first bytes
    /// (``StoreType/identify(fileAt:among:)`` over the registered types, by name).
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/io`` when the file cannot be read,
    ///   or ``StoreError/Code/unknownStoreType`` when no registered type recognises it.
    public func storeType(ofFileAt url: URL) throws -> StoreType {
        let types = state.withLock { $0.types.values.sorted { $0.name < $1.name } }
        return try StoreType.identify(fileAt: url, among: types)
    }
}
