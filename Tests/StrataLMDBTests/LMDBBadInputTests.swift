import CStrataLMDB
import Foundation
import Logging
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// Files that are not Strata LMDB stores, and places a store cannot be made, give typed
/// errors and leave every byte and file as it was.
@Suite struct LMDBBadInputTests {
    /// Expects opening and reading the metadata of the file at `url` to throw `code` with a
    /// message containing `words`, and the folder to be byte for byte what it was.
    private func expectRefused(
        _ url: URL, _ code: StoreError.Code, mentioning words: String, model: ManagedObjectModel = LMDBTestModel.model
    ) throws {
        let folder = url.deletingLastPathComponent()
        let before = try contents(of: folder)
        let opening = #expect(throws: StoreError.self) {
            try LMDBStoreFile.open(StoreOpenRequest(model: model, url: url))
        }
        #expect(opening?.code == code)
        #expect(opening?.message.contains(words) == true, "\(opening?.message ?? "")")
        if code != .incompatibleModel {
            let reading = #expect(throws: StoreError.self) { try LMDBStoreFile.readMetadata(at: url.path) }
            #expect(reading?.code == code)
        }
        #expect(try contents(of: folder) == before)
    }

    /// The files in `folder` with their bytes; a `-lock` file's bytes are liblmdb's shared
    /// reader table, not the store's, so only its presence counts, as does a folder's.
    private func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            files[name] =
                name.hasSuffix("-lock") || isFolder.boolValue
                ? Data() : try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    @Test(arguments: [
        Data("not a store at all".utf8), Data(repeating: 0, count: 8_192),
        Data((0..<8_192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }),
    ])
    func aFileThatIsNotLMDBIsCorrupt(bytes: Data) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("text.lmdb")
        try bytes.write(to: url)
        try expectRefused(url, .corrupt, mentioning: url.path)
    }

    @Test func aTruncatedStoreIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cut.lmdb")
        do {
            let store = try LMDBTestModel.open(url)
            try LMDBTestModel.insertPlayers(200, into: store)
        }
        try FileManager.default.removeItem(atPath: url.path + "-lock")
        let bytes = try Data(contentsOf: url)
        try bytes.prefix(bytes.count / 2).write(to: url)
        try expectRefused(url, .corrupt, mentioning: "pages")
    }

    @Test func aForeignLMDBEnvironmentIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("foreign.lmdb")
        do {
            let environment = try LMDBEnvironment(
                path: url.path, readOnly: false, relaxedDurability: false, mapSize: nil)
            try environment.write { try $0.put(LMDBTransaction.mainDatabase, Array("key".utf8), Array("Ada".utf8)) }
        }
        try FileManager.default.removeItem(atPath: url.path + "-lock")
        try expectRefused(url, .corrupt, mentioning: LMDBLayout.metaDatabase)
    }

    /// A damaged key of the meta database reads as a key the file lacks; opening used to take
    /// the store for one written before its index set was recorded and rebuild its indexes,
    /// writing to a damaged file (conformance `N.byteFlips`, seed 680).
    @Test func aDamagedMetaKeyIsCorruptAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("flipped.lmdb")
        do {
            let store = try LMDBTestModel.open(url)
            try LMDBTestModel.insertPlayers(10, into: store)
            try store.environment.write { transaction in
                let indexes = try #require(try transaction.get(store.databases.meta, LMDBLayout.indexesKey))
                _ = try transaction.delete(store.databases.meta, LMDBLayout.indexesKey)
                try transaction.put(store.databases.meta, Array("indexrs".utf8), indexes)
            }
        }
        try FileManager.default.removeItem(atPath: url.path + "-lock")
        try expectRefused(url, .corrupt, mentioning: "unknown key 'indexrs'")
    }

    @Test func aStoreThatKeptHistoryAndLostItsDatabaseIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("history.lmdb")
        var options = StoreOptions()
        options.tracksPersistentHistory = true
        do {
            let store = try LMDBStoreFile.open(StoreOpenRequest(model: LMDBTestModel.model, url: url, options: options))
            try LMDBTestModel.insertPlayers(10, into: store)
            try store.environment.write { transaction in
                let changes = try #require(
                    try transaction.openDatabase(LMDBHistoryLayout.changeDatabase, create: false))
                try LMDBError.check(mdb_drop(transaction.handle, changes, 1), "mdb_drop")
            }
        }
        try FileManager.default.removeItem(atPath: url.path + "-lock")
        let folder = url.deletingLastPathComponent()
        let before = try contents(of: folder)
        let opening = #expect(throws: StoreError.self) {
            try LMDBStoreFile.open(StoreOpenRequest(model: LMDBTestModel.model, url: url, options: options))
        }
        #expect(opening?.code == .corrupt)
        #expect(opening?.message.contains(LMDBHistoryLayout.changeDatabase) == true, "\(opening?.message ?? "")")
        #expect(try contents(of: folder) == before)
    }

    @Test func aStoreOfAnotherModelNamesTheEntities() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("model.lmdb")
        do { try LMDBTestModel.insertPlayers(10, into: try LMDBTestModel.open(url)) }
        let other = ManagedObjectModel {
            EntityDescription("Player") { AttributeDescription("name", .string) }
            EntityDescription("Coach") { AttributeDescription("name", .string) }
        }
        try other.freeze()
        try expectRefused(url, .incompatibleModel, mentioning: "'Coach'", model: other)
        try expectRefused(url, .incompatibleModel, mentioning: "'Player'", model: other)
    }

    @Test func aNewerLayoutVersionIsUnsupported() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("newer.lmdb")
        do { try LMDBTestModel.insertPlayers(10, into: try LMDBTestModel.open(url)) }
        try LMDBTestFiles.setFormatVersion(LMDBLayout.formatVersion + 1, at: url)
        try expectRefused(url, .unsupported, mentioning: "version \(LMDBLayout.formatVersion + 1)")
    }

    @Test func aFolderWhereTheFileGoesIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("folder.lmdb")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try expectRefused(url, .io, mentioning: "folder")
    }

    @Test func aLocationThatCannotBeWrittenIsRefusedAndNothingIsCreated() throws {
        let directory = try TemporaryDirectory()
        // Root may write anywhere on a normal file system, but not into /proc.
        let folder = getuid() == 0 ? URL(fileURLWithPath: "/proc/self") : directory.file("locked")
        if getuid() != 0 {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        }
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let url = folder.appendingPathComponent("store-\(UUID().uuidString).lmdb")
        let error = #expect(throws: StoreError.self) { try LMDBTestModel.open(url) }
        #expect(error?.code == .io)
        #expect(error?.message.contains(url.path) == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-lock"))
    }

    @Test func aReadOnlyStoreRefusesSavesAndAMissingOneIsNotCreated() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("readonly.lmdb")
        #expect(throws: StoreError.self) { try LMDBTestModel.open(url, readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        do { try LMDBTestModel.insertPlayers(10, into: try LMDBTestModel.open(url)) }
        let before = try Data(contentsOf: url)
        let store = try LMDBTestModel.open(url, readOnly: true)
        let error = #expect(throws: StoreError.self) { try LMDBTestModel.insertPlayers(1, into: store) }
        #expect(error?.code == .readOnly)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func relaxedDurabilityIsDeclaredOnlyWhenAsked() throws {
        let directory = try TemporaryDirectory()
        let durable = try LMDBTestModel.open(directory.file("durable.lmdb"))
        #expect(!durable.capabilities.contains(.relaxedDurability))
        #expect(
            durable.capabilities == [
                .queryGenerations, .persistentHistory, .multiProcessAccess, .batchOperations, .batchComputedValues,
                .externalBinaryStorage, .crossStoreRelationships,
            ])
        let relaxed = try LMDBTestModel.open(directory.file("relaxed.lmdb"), settings: ["relaxedDurability": "true"])
        #expect(relaxed.capabilities.contains(.relaxedDurability))
        try LMDBTestModel.insertPlayers(5, into: relaxed)
        #expect(try relaxed.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(5))
    }

    @Test func aStoreWithRelaxedDurabilityIsAWarningInTheLog() throws {
        let directory = try TemporaryDirectory()
        let log = CapturedLog()
        let coordinator = try PersistentStoreCoordinator(model: LMDBTestModel.model, logger: log.logger())
        try coordinator.addStore(.lmdb(at: directory.file("durable.lmdb")))
        #expect(log.lines.allSatisfy { $0.level < .warning })
        let store = try coordinator.addStore(
            .lmdb(at: directory.file("relaxed.lmdb"), options: LMDBStoreOptions(relaxedDurability: true)))
        let warning = log.lines.filter { $0.level == .warning }
        #expect(warning.count == 1 && warning.first?.metadata["store.identifier"] == store.identifier)
        #expect(warning.first?.message.contains("relaxed durability") == true)
    }

    @Test func destroyRemovesTheFileAndItsLockFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("gone.lmdb")
        do { try LMDBTestModel.insertPlayers(5, into: try LMDBTestModel.open(url)) }
        #expect(FileManager.default.fileExists(atPath: url.path + "-lock"))
        let coordinator = try PersistentStoreCoordinator(model: LMDBTestModel.model, storeTypes: [.lmdb])
        try coordinator.destroyStore(type: StoreType.lmdb.name, at: url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}

/// The page check refuses pages liblmdb would misread: keys out of order would send its
/// binary search astray, and it reads the first node of a page without counting them.
@Suite struct LMDBFileCheckPageTests {
    /// The little-endian 16-bit number at `offset` of `bytes`.
    private static func uint16(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    /// The offsets of the pages of `bytes` past the two meta pages whose flags are `flags`.
    private static func pages(of bytes: [UInt8], flagged flags: Int) -> [Int] {
        let pageSize = uint16(bytes, 40) | uint16(bytes, 42) << 16
        return stride(from: 2 * pageSize, to: bytes.count, by: pageSize).filter { uint16(bytes, $0 + 10) == flags }
    }

    /// A data file in `directory` holding the keys `key1`… in a named database (liblmdb
    /// compares keys of the main one only once it is opened), without its lock file; it passes
    /// the check.
    private static func file(keys: Int, valueSize: Int, in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("keys.lmdb")
        do {
            let environment = try LMDBEnvironment(
                path: url.path, readOnly: false, relaxedDurability: false, mapSize: nil)
            try environment.write { transaction in
                let database = try #require(try transaction.openDatabase("keys", create: true))
                for number in 1...keys {
                    try transaction.put(database, Array("key\(number)".utf8), Array(repeating: 7, count: valueSize))
                }
            }
        }
        try FileManager.default.removeItem(atPath: url.path + "-lock")
        #expect(try LMDBFileCheck.check(path: url.path) > 0, "The file as written passes.")
        return url
    }

    /// Expects the check to refuse the file at `url` as `corrupt`, saying `words`.
    private static func expectCorrupt(_ url: URL, saying words: String) {
        let error = #expect(throws: StoreError.self) { try LMDBFileCheck.check(path: url.path) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains(words) == true, "\(error?.message ?? "")")
    }

    @Test func keysOutOfOrderInALeafAreCorrupt() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.file(keys: 9, valueSize: 1, in: directory)
        var bytes = [UInt8](try Data(contentsOf: url))
        var swapped = 0
        for page in Self.pages(of: bytes, flagged: 0x02) {
            // Each node: an 8-byte header, then the key.
            let first = page + Self.uint16(bytes, page + 16) + 8
            let second = page + Self.uint16(bytes, page + 18) + 8
            guard first + 4 <= bytes.count, second + 4 <= bytes.count,
                Array(bytes[first..<(first + 4)]) == Array("key1".utf8),
                Array(bytes[second..<(second + 4)]) == Array("key2".utf8)
            else { continue }
            bytes.swapAt(first + 3, second + 3)
            swapped += 1
        }
        try #require(swapped > 0, "a leaf page holding key1 and key2")
        try Data(bytes).write(to: url)
        Self.expectCorrupt(url, saying: "out of order")
    }

    /// A branch page of one node, or a leaf page of none: liblmdb collapses the first and
    /// frees the second, and asserts or reads a node that is not there when it meets them.
    @Test(arguments: [(0x01, 1, "a branch page of 1 node"), (0x02, 0, "a leaf page of 0 nodes")])
    func aPageWithTooFewNodesIsCorrupt(flags: Int, nodes: Int, problem: String) throws {
        let directory = try TemporaryDirectory()
        let url = try Self.file(keys: 200, valueSize: 100, in: directory)
        var bytes = [UInt8](try Data(contentsOf: url))
        let page = try #require(Self.pages(of: bytes, flagged: flags).first)
        let lower = 16 + 2 * nodes
        bytes[page + 12] = UInt8(lower)
        bytes[page + 13] = 0
        try Data(bytes).write(to: url)
        Self.expectCorrupt(url, saying: problem)
    }

    /// A tree deeper than liblmdb reads (32 levels), or of no level, is damage; the check's
    /// recursion never goes deeper than liblmdb's.
    @Test(arguments: [0, 33, 65_535])
    func aTreeDeeperThanLiblmdbReadsIsCorrupt(depth: Int) throws {
        let directory = try TemporaryDirectory()
        let url = try Self.file(keys: 9, valueSize: 1, in: directory)
        var bytes = [UInt8](try Data(contentsOf: url))
        let pageSize = Self.uint16(bytes, 40) | Self.uint16(bytes, 42) << 16
        // Each meta page: the main database's record at 88, its depth 6 bytes in.
        for meta in [0, pageSize] {
            bytes[meta + 94] = UInt8(depth & 0xFF)
            bytes[meta + 95] = UInt8(depth >> 8)
        }
        try Data(bytes).write(to: url)
        Self.expectCorrupt(url, saying: "the main database has the depth \(depth)")
    }

    /// Only the main database holds named databases: a node of a named database flagged as one
    /// is damage, not a tree to walk.
    @Test func aNamedDatabaseInsideANamedDatabaseIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.file(keys: 3, valueSize: 48, in: directory)
        var bytes = [UInt8](try Data(contentsOf: url))
        let page = try #require(
            Self.pages(of: bytes, flagged: 0x02).first { page in
                let node = page + Self.uint16(bytes, page + 16)
                // The named database's leaf starts with `key1`; the main one's holds `keys`.
                return Array(bytes[(node + 8)..<(node + 12)]) == Array("key1".utf8)
            })
        bytes[page + Self.uint16(bytes, page + 16) + 4] = 0x02
        try Data(bytes).write(to: url)
        Self.expectCorrupt(url, saying: "of database 'keys' is a named database")
    }
}
