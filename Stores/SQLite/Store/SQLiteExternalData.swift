import Foundation
import Strata

/// The files in which an SQLite store keeps large values of attributes that allow external
/// storage, laid out as Core Data lays them out: `.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>`
/// beside the store file.
///
/// Every non-null value of such an attribute starts with a marker byte in its column: `1`
/// followed by the bytes themselves for a value of at most ``inlineLimit`` bytes, `2` followed
/// by the file's name and a zero byte for a longer one, whose bytes are the whole file.
struct SQLiteExternalData: Sendable {
    /// The longest value kept in its column, as Core Data keeps it: 128 KiB.
    static let inlineLimit = 131_072
    private static let inlineMarker: UInt8 = 1
    private static let fileMarker: UInt8 = 2
    private static let interimSuffix = ".interim"

    /// The folder holding the files.
    let directory: URL

    /// The external data of the store file at `storePath`.
    init(storePath: String) {
        let store = URL(fileURLWithPath: storePath)
        directory = store.deletingLastPathComponent()
            .appendingPathComponent(".\(store.deletingPathExtension().lastPathComponent)_SUPPORT")
            .appendingPathComponent("_EXTERNAL_DATA")
    }

    /// The name of the file `stored` refers to; `nil` for a value kept in its column, or null.
    static func fileName(in stored: SQLiteValue) -> String? {
        guard case .blob(let bytes) = stored, bytes.first == fileMarker, bytes.last == 0 else { return nil }
        return String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self)
    }

    /// The value a column of an external-storage attribute holds, its file mapped rather than
    /// read when it has one.
    ///
    /// - Parameter place: names the entity, attribute and object, for errors.
    /// - Throws: `StoreError` with code `corrupt` for a column without a known marker, a file
    ///   name that is not one this store writes, or a file that is missing or unreadable.
    func value(in stored: SQLiteValue, place: @autoclosure () -> String) throws -> AttributeValue {
        guard case .blob(let bytes) = stored else {
            if case .null = stored { return .null }
            throw StoreError(code: .corrupt, message: "\(place()) holds \(stored), which is not external binary data.")
        }
        switch bytes.first {
        case Self.inlineMarker:
            return .binary(Data(bytes.dropFirst()))
        case Self.fileMarker:
            guard let name = Self.fileName(in: stored), UUID(uuidString: name) != nil else {
                throw StoreError(
                    code: .corrupt, message: "\(place()) refers to an external data file with a malformed name.")
            }
            let file = directory.appendingPathComponent(name)
            do {
                return .binary(try Data(contentsOf: file, options: .alwaysMapped))
            } catch {
                throw StoreError(
                    code: .corrupt,
                    message: "\(place()) refers to the external data file '\(file.path)', which cannot be read: "
                        + "\(error.localizedDescription)")
            }
        default:
            throw StoreError(
                code: .corrupt,
                message: "\(place()) holds \(bytes.count) bytes that start with neither marker of external "
                    + "binary data (1 or 2).")
        }
    }

    /// The column value of `value`: the value itself behind its marker when short, else a
    /// reference to a file. `previous` is what the column held: a file holding the same bytes
    /// is kept; otherwise a new file is written (named in `save`) and a previous one is left for
    /// `save` to remove once the transaction commits.
    func columnValue(
        for value: AttributeValue, previous: SQLiteValue?, save: inout SQLiteExternalDataSave
    ) throws -> SQLiteValue {
        let previousFile = previous.flatMap(Self.fileName(in:))
        guard case .binary(let data) = value else {
            if let previousFile { save.obsolete.append(previousFile) }
            return SQLiteValueCodec.encode(value)
        }
        if data.count <= Self.inlineLimit {
            if let previousFile { save.obsolete.append(previousFile) }
            return .blob([Self.inlineMarker] + data)
        }
        if let previousFile, let previous,
            (try? Data(contentsOf: directory.appendingPathComponent(previousFile), options: .alwaysMapped)) == data
        {
            return previous
        }
        let name = UUID().uuidString
        try write(data, named: name)
        save.written.append(name)
        if let previousFile { save.obsolete.append(previousFile) }
        return .blob([Self.fileMarker] + Array(name.utf8) + [0])
    }

    /// Writes `data` durably to the file `name`: to an interim file first, flushed, then renamed
    /// into place and the folder flushed, so a crash leaves either no file or the whole one.
    private func write(_ data: Data, named name: String) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(
                code: .io,
                message: "Cannot create the external data folder '\(directory.path)': \(error.localizedDescription)")
        }
        let final = directory.appendingPathComponent(name).path
        let interim = final + Self.interimSuffix
        let descriptor = open(interim, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("create", interim) }
        var written = 0
        let complete = data.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return false }
                written += result
            }
            return true
        }
        let flushed = complete && fsync(descriptor) == 0
        let error = errno
        close(descriptor)
        guard flushed, rename(interim, final) == 0 else {
            errno = error
            let failure = failure("write", interim)
            unlink(interim)
            throw failure
        }
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    private func failure(_ action: String, _ path: String) -> StoreError {
        StoreError(
            code: .io,
            message: "Cannot \(action) the external data file '\(path)': \(String(cString: strerror(errno))).")
    }

    /// Removes the files `names`, ignoring those already gone.
    func remove(_ names: some Sequence<String>) {
        for name in names { unlink(directory.appendingPathComponent(name).path) }
    }

    /// Removes every file of the folder that `referenced` does not name: values of saves that
    /// never committed, and values replaced or deleted by saves that stopped before removing
    /// them. Returns how many it removed.
    func removeOrphans(keeping referenced: Set<String>) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        let orphans = names.filter { !referenced.contains($0) }
        remove(orphans)
        return orphans.count
    }
}

/// The files one save of an SQLite store wrote and those it made obsolete: the first are removed
/// if the save fails, the second once it commits.
struct SQLiteExternalDataSave {
    var written: [String] = []
    var obsolete: [String] = []
}

extension AttributeDescription {
    /// Whether an SQLite store keeps this attribute's values as external binary data: a binary
    /// or transformable attribute that allows external storage.
    var storesExternally: Bool {
        allowsExternalBinaryDataStorage && (type == .binary || type == .transformable)
    }
}
