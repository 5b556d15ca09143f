import Foundation

/// The files in which a store keeps large values of attributes that allow external storage,
/// laid out as Core Data lays them out: `.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>` beside the
/// store's file.
///
/// A stored value is *marked*: `1` followed by the bytes themselves for a value of at most
/// ``inlineLimit`` bytes, `2` followed by the file's name and a zero byte for a longer one,
/// whose bytes are the whole file. The SQLite store keeps marked values in its columns, as Core
/// Data does; the LMDB store in its records.
package struct ExternalBinaryData: Sendable {
    /// The longest value kept with the object, as Core Data keeps it: 128 KiB.
    package static let inlineLimit = 131_072
    private static let inlineMarker: UInt8 = 1
    private static let fileMarker: UInt8 = 2
    private static let interimSuffix = ".interim"

    /// The folder holding the files.
    package let directory: URL
    /// The name of the store's file, which the support folder records as its owner.
    private let owner: String

    /// The external data of the store file at `storePath`. Core Data names the support folder
    /// after the file without its extension (`.Model_SUPPORT` for `Model.sqlite`); with
    /// `keepingExtension` it is named after the whole name (`.Model.lmdb_SUPPORT`), so that
    /// stores of other types beside it never share it.
    package init(storePath: String, keepingExtension: Bool = false) {
        let store = URL(fileURLWithPath: storePath)
        let name = keepingExtension ? store.lastPathComponent : store.deletingPathExtension().lastPathComponent
        directory = store.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT")
            .appendingPathComponent("_EXTERNAL_DATA")
        owner = store.lastPathComponent
    }

    /// The file in the support folder naming the store file that writes into it.
    private var ownerFile: URL { supportDirectory.appendingPathComponent(".strata-owner") }

    /// Whether the support folder belongs to this store: it names no other store file as its
    /// owner (a folder Core Data made names none). Sweeps and destruction leave another
    /// store's folder alone, such as that of `Model.db` beside `Model.sqlite`.
    package var ownsSupportDirectory: Bool {
        guard let recorded = try? String(contentsOf: ownerFile, encoding: .utf8) else { return true }
        return recorded == owner
    }

    /// The folder holding ``directory``, which belongs to the store.
    package var supportDirectory: URL { directory.deletingLastPathComponent() }

    /// The name of the file the marked value `bytes` refers to; `nil` for a value kept whole.
    package static func fileName(inMarked bytes: some BidirectionalCollection<UInt8>) -> String? {
        guard bytes.first == fileMarker, bytes.count > 2, bytes.last == 0 else { return nil }
        return String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self)
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
            guard let name = Self.fileName(inMarked: bytes), UUID(uuidString: name) != nil else {
                throw StoreError(
                    code: .corrupt, message: "\(place()) refers to an external data file with a malformed name.")
            }
            let file = directory.appendingPathComponent(name)
            do {
                return try Data(contentsOf: file, options: .alwaysMapped)
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

    /// `data` marked: itself behind its marker when short, else a reference to a file.
    /// `previous` is the marked value it replaces: a file holding the same bytes is kept;
    /// otherwise a new file is written (noted in `writes`) and a previous one is noted as
    /// obsolete.
    package func marked(
        _ data: Data, replacing previous: [UInt8]?, writes: ExternalBinaryDataWrites
    ) throws -> [UInt8] {
        let previousFile = previous.flatMap(Self.fileName(inMarked:))
        if data.count <= Self.inlineLimit {
            if let previousFile { writes.obsolete.append(previousFile) }
            return [Self.inlineMarker] + data
        }
        if let previousFile, let previous,
            (try? Data(contentsOf: directory.appendingPathComponent(previousFile), options: .alwaysMapped)) == data
        {
            return previous
        }
        let name = UUID().uuidString
        try write(data, named: name)
        writes.written.append(name)
        if let previousFile { writes.obsolete.append(previousFile) }
        return [Self.fileMarker] + Array(name.utf8) + [0]
    }

    /// Notes the file of the marked value `previous`, which a save clears or deletes, as
    /// obsolete.
    package func clear(_ previous: [UInt8]?, writes: ExternalBinaryDataWrites) {
        if let file = previous.flatMap(Self.fileName(inMarked:)) { writes.obsolete.append(file) }
    }

    /// Creates the folder when missing, recording this store as its owner, and flushes the new
    /// entries, so that a committed reference never outlives its folder.
    private func createDirectory() throws {
        guard !FileManager.default.fileExists(atPath: directory.path) else { return }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: ownerFile.path) {
            try Data(owner.utf8).write(to: ownerFile)
        }
        Self.flushFolder(supportDirectory.deletingLastPathComponent())
        Self.flushFolder(supportDirectory)
    }

    /// Writes `data` durably to the file `name`: to an interim file first, flushed, then renamed
    /// into place and the folder flushed, so a crash leaves either no file or the whole one.
    private func write(_ data: Data, named name: String) throws {
        do {
            try createDirectory()
            guard ownsSupportDirectory else {
                throw StoreError(
                    code: .io,
                    message: "The external data folder '\(directory.path)' belongs to another store file; move one "
                        + "of the stores to a folder of its own.")
            }
        } catch let error as StoreError {
            throw error
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
        Self.flushFolder(directory)
    }

    /// Flushes the entries of `folder` to disk.
    private static func flushFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Flushes the file at `path` to disk.
    private static func flushFile(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private func failure(_ action: String, _ path: String) -> StoreError {
        StoreError(
            code: .io,
            message: "Cannot \(action) the external data file '\(path)': \(String(cString: strerror(errno))).")
    }

    /// Removes the files `names`, ignoring those already gone.
    package func remove(_ names: some Sequence<String>) {
        for name in names { unlink(directory.appendingPathComponent(name).path) }
    }

    /// The names of the folder's files.
    package var fileNames: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    /// Removes every file of the folder that `referenced` does not name: values of saves that
    /// never committed, and values replaced or deleted by saves that stopped before removing
    /// them. Returns how many it removed.
    package func removeOrphans(keeping referenced: Set<String>) -> Int {
        guard ownsSupportDirectory else { return 0 }
        let orphans = fileNames.filter { !referenced.contains($0) }
        remove(orphans)
        return orphans.count
    }

    /// Copies the files of `source` that this folder lacks, flushed, so that a replaced store's
    /// records can refer to them. A replacement copies before and after copying the records:
    /// files never change, and one the source makes obsolete meanwhile outlives the copy.
    package func copyFiles(of source: ExternalBinaryData) throws {
        let names = source.fileNames.filter { !$0.hasSuffix(Self.interimSuffix) }
        guard !names.isEmpty else { return }
        do {
            try createDirectory()
            for name in names {
                let target = directory.appendingPathComponent(name)
                guard !FileManager.default.fileExists(atPath: target.path) else { continue }
                try FileManager.default.copyItem(at: source.directory.appendingPathComponent(name), to: target)
                Self.flushFile(target.path)
            }
            Self.flushFolder(directory)
        } catch {
            throw StoreError(
                code: .io,
                message: "Could not copy the external data of '\(source.directory.path)' to '\(directory.path)'.",
                underlying: error)
        }
    }
}

/// The files one save wrote and those it made obsolete: the first are removed if the save fails,
/// the second once it commits. A save that is tried again (its transaction rolled back and run
/// anew) calls ``startAttempt()`` first, so the files of the abandoned attempt go too.
package final class ExternalBinaryDataWrites {
    package var written: [String] = []
    package var obsolete: [String] = []
    private var abandoned: [String] = []

    package init() {}

    /// Starts a new attempt of the save: what the last one wrote is abandoned.
    package func startAttempt() {
        abandoned += written
        written = []
        obsolete = []
    }

    /// Removes what is no longer needed once the save committed: the files of abandoned
    /// attempts at once, the obsolete ones through `removals`, which keeps them while a read
    /// view that began before the commit may still read them.
    package func committed(
        in files: ExternalBinaryData, removals: ExternalBinaryDataRemovals, oldestReader: ContinuousClock.Instant?
    ) {
        files.remove(abandoned)
        removals.add(obsolete)
        removals.removeDue(in: files, oldestReader: oldestReader)
    }

    /// Removes every file the save wrote, after it failed.
    package func failed(in files: ExternalBinaryData) {
        files.remove(written + abandoned)
    }
}

extension AttributeDescription {
    /// Whether a store declaring ``StoreCapabilities/externalBinaryStorage`` keeps this
    /// attribute's values as external binary data: a binary or transformable attribute that
    /// allows external storage.
    package var storesExternally: Bool {
        allowsExternalBinaryDataStorage && (type == .binary || type == .transformable)
    }
}

/// The files saves made obsolete, kept while a read view (a query generation) that began
/// before they became obsolete is open, since it may still read the values they hold. Files
/// still kept when the store closes are left to the sweep of a later opening.
package final class ExternalBinaryDataRemovals: Sendable {
    private let pending = Locked<[(name: String, since: ContinuousClock.Instant)]>([])

    package init() {}

    /// Notes `names` as obsolete from now.
    package func add(_ names: [String]) {
        guard !names.isEmpty else { return }
        let now = ContinuousClock.now
        pending.withLock { $0 += names.map { ($0, now) } }
    }

    /// Removes the files no open read view can read: all when `oldestReader` is `nil`, else those
    /// obsolete since before it began.
    package func removeDue(in files: ExternalBinaryData, oldestReader: ContinuousClock.Instant?) {
        let due = pending.withLock { pending -> [String] in
            func isDue(_ entry: (name: String, since: ContinuousClock.Instant)) -> Bool {
                oldestReader.map { entry.since < $0 } ?? true
            }
            let due = pending.filter(isDue).map(\.name)
            pending.removeAll(where: isDue)
            return due
        }
        files.remove(due)
    }
}
