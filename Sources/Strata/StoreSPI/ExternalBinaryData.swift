import Foundation

/// The files in which a store keeps large values of attributes that allow external storage,
/// laid out as Core Data lays them out: `.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>` beside the
/// store's file.
///
/// A stored value is *marked*: `1` followed by the bytes themselves for a value of at most
/// ``inlineLimit`` bytes, `2` followed by the file's name and a zero byte for a longer one,
/// whose bytes are the whole file. The SQLite store keeps marked values in its columns, as Core
/// Data does; the LMDB store in its records.
///
/// What a marked value names is data: a file is read, kept or removed only under an
/// ``ExternalDataFileName``, and only inside the store's own folders, which are never reached
/// through symbolic links (``StoreSideFolder``).
package struct ExternalBinaryData: Sendable {
    /// The longest value kept with the object, as Core Data keeps it: 128 KiB.
    package static let inlineLimit = 131_072
    private static let inlineMarker: UInt8 = 1
    private static let fileMarker: UInt8 = 2
    private static let ownerFileName = ".strata-owner"

    /// The folder holding the files.
    private let folder: StoreSideFolder
    /// The folder holding ``folder``, which belongs to the store.
    private let support: StoreSideFolder
    /// The name of the store's file, which the support folder records as its owner.
    private let owner: String

    /// The external data of the store file at `storePath`. Core Data names the support folder
    /// after the file without its extension (`.Model_SUPPORT` for `Model.sqlite`); with
    /// `keepingExtension` it is named after the whole name (`.Model.lmdb_SUPPORT`), so that
    /// stores of other types beside it never share it.
    package init(storePath: String, keepingExtension: Bool = false) {
        let store = URL(fileURLWithPath: storePath)
        let name = keepingExtension ? store.lastPathComponent : store.deletingPathExtension().lastPathComponent
        support = StoreSideFolder(base: store.deletingLastPathComponent(), levels: [".\(name)_SUPPORT"])
        folder = StoreSideFolder(base: support.base, levels: support.levels + ["_EXTERNAL_DATA"])
        owner = store.lastPathComponent
    }

    /// The folder holding the files.
    package var directory: URL { folder.url }

    /// The folder holding ``directory``, which belongs to the store.
    package var supportDirectory: URL { support.url }

    /// Whether the support folder belongs to this store: it names no other store file as its
    /// owner (a folder Core Data made names none). Sweeps and destruction leave another
    /// store's folder alone, such as that of `Model.db` beside `Model.sqlite`.
    ///
    /// - Throws: ``StoreError`` with code `corrupt` when the support folder is a symbolic link
    ///   or not a folder.
    package func ownsSupportDirectory() throws -> Bool {
        try support.open(creating: false).map(owns) ?? true
    }

    /// Whether the open support folder `opened` names this store's file as its owner, or none.
    private func owns(_ opened: OpenFolder) -> Bool {
        guard opened.contains(Self.ownerFileName) else { return true }
        guard let recorded = try? opened.read(Self.ownerFileName) else { return false }
        return String(decoding: recorded, as: UTF8.self) == owner
    }

    /// The name of the file the marked value `bytes` refers to; `nil` for a value kept whole
    /// (or one with no marker of a file).
    ///
    /// - Parameter place: names the store, entity, attribute and object, for errors.
    /// - Throws: ``StoreError`` with code `corrupt` when `bytes` are marked as a file's name
    ///   but name no file a store writes.
    package static func fileName(
        inMarked bytes: some BidirectionalCollection<UInt8>, place: @autoclosure () -> String
    ) throws -> ExternalDataFileName? {
        guard bytes.first == fileMarker else { return nil }
        guard bytes.count > 2, bytes.last == 0,
            let text = String(validating: bytes.dropFirst().dropLast(), as: UTF8.self),
            let name = ExternalDataFileName(text)
        else {
            throw StoreError(
                code: .corrupt,
                message: "\(place()) refers to an external data file with a malformed name (\(bytes.count) bytes); "
                    + "a store names its files by UUID, in its own folder.")
        }
        return name
    }

    /// The value the marked `bytes` hold, a file mapped rather than read.
    ///
    /// - Parameter place: names the store, entity, attribute and object, for errors.
    /// - Throws: ``StoreError`` with code `corrupt` for bytes without a known marker, a file
    ///   name that is not one a store writes, or a file that is missing or unreadable.
    package func value(inMarked bytes: some BidirectionalCollection<UInt8>, place: @autoclosure () -> String) throws
        -> Data
    {
        switch bytes.first {
        case Self.inlineMarker:
            return Data(bytes.dropFirst())
        case Self.fileMarker:
            let name = try Self.fileName(inMarked: bytes, place: place())!
            do {
                guard let opened = try folder.open(creating: false) else {
                    throw StoreError(code: .io, message: "The folder '\(directory.path)' is missing.")
                }
                return try opened.read(name.text)
            } catch let error as StoreError {
                throw StoreError(
                    code: .corrupt,
                    message: "\(place()) refers to the external data file '\(name)', which cannot be read: "
                        + error.message,
                    underlying: error)
            }
        default:
            throw StoreError(
                code: .corrupt,
                message: "\(place()) holds \(bytes.count) bytes that start with neither marker of external "
                    + "binary data (1 or 2).")
        }
    }

    /// `data` marked: itself behind its marker when short, else a reference to a file.
    /// `previous` is the marked value it replaces: a file holding the same bytes is kept;
    /// otherwise a new file is written (noted in `writes`) and a previous one is noted as
    /// obsolete.
    ///
    /// - Parameter place: names the store, entity, attribute and object, for errors.
    /// - Throws: ``StoreError`` with code `corrupt` when `previous` names no file a store writes,
    ///   `io` when the file cannot be written.
    package func marked(
        _ data: Data, replacing previous: [UInt8]?, writes: ExternalBinaryDataWrites,
        place: @autoclosure () -> String
    ) throws -> [UInt8] {
        let previousFile = try previous.flatMap { try Self.fileName(inMarked: $0, place: place()) }
        if data.count <= Self.inlineLimit {
            if let previousFile { writes.obsolete.append(previousFile) }
            return [Self.inlineMarker] + data
        }
        if let previousFile, let previous, (try? folder.open(creating: false)?.read(previousFile.text)) == data {
            return previous
        }
        let name = ExternalDataFileName.unique()
        try write(data, named: name)
        writes.written.append(name)
        if let previousFile { writes.obsolete.append(previousFile) }
        return [Self.fileMarker] + Array(name.text.utf8) + [0]
    }

    /// Notes the file of the marked value `previous`, which a save clears or deletes, as
    /// obsolete.
    ///
    /// - Parameter place: names the store, entity, attribute and object, for errors.
    /// - Throws: ``StoreError`` with code `corrupt` when `previous` names no file a store writes.
    package func clear(
        _ previous: [UInt8]?, writes: ExternalBinaryDataWrites, place: @autoclosure () -> String
    ) throws {
        if let file = try previous.flatMap({ try Self.fileName(inMarked: $0, place: place()) }) {
            writes.obsolete.append(file)
        }
    }

    /// The folder of the files, created when missing with the support folder recording this
    /// store as its owner, and its new entries flushed, so that a committed reference never
    /// outlives its folder.
    private func openCreating() throws -> OpenFolder {
        let existing = try support.open(creating: false)
        guard let supportFolder = try existing ?? support.open(creating: true) else {
            throw StoreError(code: .io, message: "Cannot create the folder '\(supportDirectory.path)'.")
        }
        if existing == nil {
            try supportFolder.write(
                Data(owner.utf8), to: Self.ownerFileName, through: Self.ownerFileName + ".\(UUID().uuidString)")
        }
        guard owns(supportFolder) else {
            throw StoreError(
                code: .io,
                message: "The external data folder '\(directory.path)' belongs to another store file; move one "
                    + "of the stores to a folder of its own.")
        }
        guard let opened = try folder.open(creating: true) else {
            throw StoreError(code: .io, message: "Cannot create the folder '\(directory.path)'.")
        }
        return opened
    }

    /// Writes `data` durably to the file `name` (see ``OpenFolder/write(_:to:through:)``).
    private func write(_ data: Data, named name: ExternalDataFileName) throws {
        try openCreating().write(data, to: name.text, through: name.interim)
    }

    /// Removes the files `names`, ignoring those already gone and a folder that is missing or
    /// refused (a symbolic link, which nothing is removed through).
    package func remove(_ names: some Collection<ExternalDataFileName>) {
        guard !names.isEmpty, let opened = try? folder.open(creating: false) else { return }
        for name in names { opened.remove(name.text) }
    }

    /// Whether the folder of the files exists.
    ///
    /// - Throws: ``StoreError`` with code `corrupt` when a folder is a symbolic link.
    package func exists() throws -> Bool {
        try folder.open(creating: false) != nil
    }

    /// Removes every file a store writes (an ``ExternalDataFileName`` or its interim file) that
    /// `referenced` does not name: values of saves that never committed, and values replaced or
    /// deleted by saves that stopped before removing them. Files of other names are left alone.
    /// Returns how many it removed.
    ///
    /// - Throws: ``StoreError`` with code `corrupt` when a folder is a symbolic link.
    package func removeOrphans(keeping referenced: Set<ExternalDataFileName>) throws -> Int {
        guard try ownsSupportDirectory(), let opened = try folder.open(creating: false) else { return 0 }
        let orphans = opened.names().filter {
            ExternalDataFileName.isWritten($0) && ExternalDataFileName($0).map(referenced.contains) != true
        }
        for orphan in orphans { opened.remove(orphan) }
        return orphans.count
    }

    /// Copies the files of `source` that this folder lacks, flushed, so that a replaced store's
    /// records can refer to them. A replacement copies before and after copying the records:
    /// files never change, and one the source makes obsolete meanwhile outlives the copy.
    package func copyFiles(of source: ExternalBinaryData) throws {
        do {
            guard let from = try source.folder.open(creating: false) else { return }
            let names = from.names().compactMap(ExternalDataFileName.init)
            guard !names.isEmpty else { return }
            let to = try openCreating()
            for name in names where !to.contains(name.text) {
                try to.write(try from.read(name.text), to: name.text, through: name.interim)
            }
        } catch let error as StoreError where error.code == .corrupt {
            throw error
        } catch {
            throw StoreError(
                code: .io,
                message: "Could not copy the external data of '\(source.directory.path)' to '\(directory.path)'.",
                underlying: error)
        }
    }

    /// Checks that neither the support folder nor the folder of the files is a symbolic link or
    /// something else than a folder, as a store's destruction does before it removes anything.
    ///
    /// - Throws: ``StoreError`` with code `corrupt` when one is.
    package func checkFolders() throws {
        _ = try support.open(creating: false)
        _ = try folder.open(creating: false)
    }

    /// Removes the support folder and everything in it, when it belongs to this store
    /// (``ownsSupportDirectory()``); links inside it are removed, never followed.
    ///
    /// - Throws: ``StoreError`` with code `corrupt` when a folder is a symbolic link (nothing is
    ///   removed then), `io` when something cannot be removed.
    package func destroy() throws {
        try checkFolders()
        guard try ownsSupportDirectory(), try support.open(creating: false) != nil else { return }
        do {
            try FileManager.default.removeItem(at: supportDirectory)
        } catch {
            throw StoreError(
                code: .io, message: "Could not remove '\(supportDirectory.path)' of the store.", underlying: error)
        }
    }
}
