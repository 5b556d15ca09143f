import CStrataLMDB
import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataLMDB

/// The LMDB store reads the name of an external data file from its records, which other
/// processes and crafted files write: a name no store writes is `corrupt` on every path, and no
/// file outside the store's folder of external data is removed; a linked folder is never
/// followed.
@Suite struct LMDBExternalDataNameTests {
    typealias Stack = LMDBExternalDataTests.Stack

    enum Action: CaseIterable {
        case read, replace, clear, delete, batchDelete, destroy
    }

    @Test(arguments: Action.allCases)
    func aHostileNameIsCorruptAndRemovesNothing(_ action: Action) throws {
        for index in HostileFileNames.all(victim: "").indices {
            let folder = try TemporaryDirectory()
            let victim = folder.url.appendingPathComponent("victim")
            try Data("keep me".utf8).write(to: victim)
            let hostile = HostileFileNames.all(victim: victim.path)[index]
            do {
                let stack = try Stack(folder)
                try stack.save("long", image: LMDBExternalDataTests.large)
                try Self.rewriteImage(of: stack, to: [2] + hostile.bytes + [0])
                let outcome = Result {
                    switch action {
                    case .read: _ = try stack.image("long")
                    case .replace: try stack.save("long", image: LMDBExternalDataTests.otherLarge)
                    case .clear: try stack.save("long", image: nil)
                    case .delete, .destroy:
                        try stack.context.performAndWait {
                            let scans = try stack.context.fetch(FetchRequest<ManagedObject>(entityName: "Scan"))
                            for scan in scans { try stack.context.delete(scan) }
                            try stack.context.save()
                        }
                    case .batchDelete:
                        _ = try stack.coordinator.execute(BatchDeleteRequest(entityName: "Scan"))
                    }
                }
                switch outcome {
                case .failure(let error):
                    #expect(
                        HostileFileNames.isCorrupt(error, naming: "Scan.image"),
                        "\(action) with \(hostile.label): \(error)")
                case .success:
                    #expect(action == .destroy, "\(action) with \(hostile.label) succeeded")
                }
                #expect(FileManager.default.fileExists(atPath: victim.path), "\(action) with \(hostile.label)")
            }
            if action == .destroy {
                let coordinator = try PersistentStoreCoordinator(
                    model: LMDBExternalDataTests.model, storeTypes: [.lmdb])
                try coordinator.destroyStore(type: "LMDB", at: folder.file("Scans.lmdb"))
                #expect(FileManager.default.fileExists(atPath: victim.path), "\(action) with \(hostile.label)")
            }
        }
    }

    @Test func aLinkedFolderIsNeverFollowed() throws {
        let folder = try TemporaryDirectory()
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let precious = elsewhere.appendingPathComponent(UUID().uuidString)
        try Data("keep me".utf8).write(to: precious)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent(".Scans.lmdb_SUPPORT"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent(".Scans.lmdb_SUPPORT/_EXTERNAL_DATA"), withDestinationURL: elsewhere)
        do {
            let stack = try Stack(folder)
            #expect {
                try stack.save("long", image: LMDBExternalDataTests.large)
            } throws: { HostileFileNames.isCorrupt($0, naming: "symbolic link") }
        }
        _ = try Stack(folder)
        #expect(FileManager.default.fileExists(atPath: precious.path), "the sweep at opening did not follow the link")
        #expect {
            let coordinator = try PersistentStoreCoordinator(model: LMDBExternalDataTests.model, storeTypes: [.lmdb])
            try coordinator.destroyStore(type: "LMDB", at: folder.file("Scans.lmdb"))
        } throws: { HostileFileNames.isCorrupt($0, naming: "symbolic link") }
        #expect(FileManager.default.fileExists(atPath: precious.path))
    }

    /// Rewrites the `image` value of every record of `stack`'s store to the marked `bytes`, as
    /// another process would.
    static func rewriteImage(of stack: Stack, to bytes: [UInt8]) throws {
        try rewriteRecords(of: stack) { snapshot in
            var values = snapshot.values
            values["image"] = .binary(Data(bytes))
            return Snapshot(objectID: snapshot.objectID, values: values, version: snapshot.version)
        }
    }

    /// Rewrites every record of `stack`'s store as `change` makes it, as another process would.
    static func rewriteRecords(of stack: Stack, _ change: (Snapshot) -> Snapshot) throws {
        let store = try #require(stack.coordinator.stores.first as? LMDBStore)
        let database = try #require(store.databases.records["Scan"] as MDB_dbi?)
        try store.environment.write { transaction in
            var records: [([UInt8], Snapshot)] = []
            try transaction.scan(database, from: []) { key, value in
                let snapshot = try store.layout.decode(
                    Array(value), primaryKey: LMDBLayout.primaryKey(key), root: "Scan")
                records.append((Array(key), snapshot))
                return true
            }
            for (key, snapshot) in records {
                try transaction.put(database, key, store.layout.encode(change(snapshot)))
            }
        }
    }
}
