import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// Each file store on a real file system (a loop-mounted ext4 image, `DiskImage`) that fills up
/// or turns read-only under it: a save meets the kernel's own `ENOSPC` or `EROFS`, fails with a
/// typed error, and the store reopens holding exactly the saves that succeeded. Where the tests
/// cannot mount (not root), they say so; CI sets `STRATA_REQUIRE_DISK_FAULTS=1`, which makes
/// that a failure.
@Suite(.serialized) struct RealDiskFaultTests {
    static let types = ["SQLite", "LMDB", "XML", "Binary"]

    static let model: ManagedObjectModel = ManagedObjectModel {
        EntityDescription("Entry") {
            AttributeDescription("serial", .integer64)
            AttributeDescription("text", .string)
        }
    }

    /// A value large enough that a few saves overflow the last blocks of a full disk.
    static let payload = String(repeating: "disk-fault ", count: 6_000)

    /// A mounted disk image of 8 MiB, or `nil` after saying why it cannot be made.
    static func disk() -> DiskImage? {
        DiskImage.forTest(megabytes: 8) { Issue.record(Comment(rawValue: $0)) }
    }

    /// A thin disk image: 64 MiB on 24 MiB of storage, or `nil` after saying why it cannot be made.
    static func thinDisk() -> DiskImage? {
        DiskImage.forTest(megabytes: 64, storageMegabytes: 24) { Issue.record(Comment(rawValue: $0)) }
    }

    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let store: any IncrementalStore
        let context: ManagedObjectContext

        init(_ type: String, at url: URL) throws {
            coordinator = try PersistentStoreCoordinator(
                model: RealDiskFaultTests.model, storeTypes: StoreType.builtInFileTypes)
            store = try coordinator.addStore(type: type, at: url)
            context = ManagedObjectContext(coordinator: coordinator)
        }

        func save(_ serial: Int) throws {
            try context.performAndWait {
                let entry = try context.insertNewObject(forEntityName: "Entry")
                try entry.setValue(.integer64(Int64(serial)), forKey: "serial")
                try entry.setValue(.string(RealDiskFaultTests.payload), forKey: "text")
                do {
                    try context.save()
                } catch {
                    context.rollback()
                    throw error
                }
            }
        }

        /// Saves `serials` until a save fails, adding those that succeed to `saved`; returns the
        /// failure, `nil` when every save succeeded.
        func saveUntilFailure(_ serials: Range<Int>, saved: inout [Int64]) -> (any Error)? {
            for serial in serials {
                do {
                    try save(serial)
                    saved.append(Int64(serial))
                } catch {
                    return error
                }
            }
            return nil
        }

        func serials() throws -> [Int64] {
            try context.performAndWait {
                var request = FetchRequest<ManagedObject>(entityName: "Entry")
                request.sortDescriptors = [FetchSortDescriptor("serial")]
                return try context.fetch(request).map { entry in
                    guard case .integer64(let serial) = try entry.value(forKey: "serial") else { return -1 }
                    return serial
                }
            }
        }
    }

    /// The code of the store error `error` is or wraps.
    static func storeCode(_ error: any Error) -> StoreError.Code? {
        var current: (any Error)? = error
        while let error = current {
            if let store = error as? StoreError { return store.code }
            current = (error as? ContextError)?.underlying
        }
        return nil
    }

    @Test(arguments: types)
    func aFullDiskFailsASaveWithIOAndLosesNothing(_ type: String) throws {
        guard let disk = Self.disk() else { return }
        let url = disk.folder.appendingPathComponent("store.\(type.lowercased())")
        var saved: [Int64] = []
        do {
            let stack = try Stack(type, at: url)
            for serial in 0..<10 {
                try stack.save(serial)
                saved.append(Int64(serial))
            }
            let filler = try disk.fill()
            let error = try #require(stack.saveUntilFailure(10..<60, saved: &saved), "\(type): every save fitted")
            #expect(Self.storeCode(error) == .io, "\(type): \(error)")
            try FileManager.default.removeItem(at: filler)
            try stack.save(100)
            saved.append(100)
        }
        let reopened = try Stack(type, at: url)
        #expect(try reopened.serials() == saved, "\(type) after a full disk")
    }

    @Test(arguments: types)
    func aFileSystemTurnedReadOnlyFailsASaveAndLosesNothing(_ type: String) throws {
        guard let disk = Self.disk() else { return }
        let url = disk.folder.appendingPathComponent("store.\(type.lowercased())")
        do {
            let stack = try Stack(type, at: url)
            for serial in 0..<5 { try stack.save(serial) }
            try disk.turnReadOnly()
            let error = try #require(throws: (any Error).self) { try stack.save(5) }
            #expect([.io, .readOnly].contains(Self.storeCode(error)), "\(type): \(error)")
            try? stack.coordinator.remove(stack.store)
        }
        try disk.remountWritable()
        let reopened = try Stack(type, at: url)
        #expect(try reopened.serials() == [0, 1, 2, 3, 4], "\(type) after the file system turned read-only")
        try reopened.save(5)
        #expect(try reopened.serials() == [0, 1, 2, 3, 4, 5])
    }

    /// The storage under the file system runs out: the save's writes land in the page cache,
    /// the kernel cannot write them back, and the store's `fsync` fails (`EIO` from ext4, which
    /// then turns read-only). The save fails with a typed error; after the storage is freed and
    /// the file system repaired, the store holds exactly the saves that succeeded, none of the
    /// failed one.
    @Test(arguments: types)
    func aWriteBackThatFailsUnderTheFileSystemFailsASaveAndLosesNothing(_ type: String) throws {
        guard let disk = Self.thinDisk() else { return }
        let url = disk.folder.appendingPathComponent("store.\(type.lowercased())")
        var saved: [Int64] = []
        do {
            let stack = try Stack(type, at: url)
            for serial in 0..<5 {
                try stack.save(serial)
                saved.append(Int64(serial))
            }
            try disk.exhaustStorage()
            let error = try #require(stack.saveUntilFailure(5..<40, saved: &saved), "\(type): every save succeeded")
            #expect([.io, .readOnly].contains(Self.storeCode(error)), "\(type): \(error)")
            try? stack.coordinator.remove(stack.store)
        }
        try disk.freeStorage()
        try disk.remountWritable()
        let reopened = try Stack(type, at: url)
        #expect(try reopened.serials() == saved, "\(type) after a failed write-back")
        try reopened.save(100)
        #expect(try reopened.serials() == saved + [100])
    }

    /// How a disk fails under a save across stores.
    enum Fault: String, CaseIterable, Sendable {
        /// The file system fills up: writes fail with `ENOSPC`.
        case fullDisk
        /// The storage under the file system runs out: `fsync` fails.
        case failedWriteBack
    }

    /// A save across an SQLite and an LMDB store of one folder (through the save log) on a disk
    /// that fails: whatever fails, after freeing space (and repairing the file system) and
    /// reopening, both stores hold the same saves.
    @Test(arguments: Fault.allCases)
    func aSaveAcrossStoresOnAFailingDiskIsWholeOrAbsent(_ fault: Fault) throws {
        guard let disk = fault == .fullDisk ? Self.disk() : Self.thinDisk() else { return }
        let model = ManagedObjectModel {
            EntityDescription("Left") {
                AttributeDescription("serial", .integer64)
                AttributeDescription("text", .string)
            }
            EntityDescription("Right") {
                AttributeDescription("serial", .integer64)
                AttributeDescription("text", .string)
            }
            ConfigurationDescription("L", entities: ["Left"])
            ConfigurationDescription("R", entities: ["Right"])
        }
        func open() throws -> PersistentStoreCoordinator {
            let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
            try coordinator.addStore(
                type: "SQLite", configuration: "L", at: disk.folder.appendingPathComponent("l.sqlite"))
            try coordinator.addStore(type: "LMDB", configuration: "R", at: disk.folder.appendingPathComponent("r.lmdb"))
            return coordinator
        }
        func serials(_ entity: String, _ context: ManagedObjectContext) throws -> [Int64] {
            try context.performAndWait {
                var request = FetchRequest<ManagedObject>(entityName: entity)
                request.sortDescriptors = [FetchSortDescriptor("serial")]
                return try context.fetch(request).map { object in
                    guard case .integer64(let serial) = try object.value(forKey: "serial") else { return -1 }
                    return serial
                }
            }
        }
        var failure: (any Error)?
        do {
            let coordinator = try open()
            let context = ManagedObjectContext(coordinator: coordinator)
            let filler = fault == .fullDisk ? try disk.fill() : nil
            if fault == .failedWriteBack { try disk.exhaustStorage() }
            for serial in 0..<40 where failure == nil {
                do {
                    try context.performAndWait {
                        for entity in ["Left", "Right"] {
                            let object = try context.insertNewObject(forEntityName: entity)
                            try object.setValue(.integer64(Int64(serial)), forKey: "serial")
                            try object.setValue(.string(Self.payload), forKey: "text")
                        }
                        try context.save()
                    }
                } catch {
                    failure = error
                    context.performAndWait { context.rollback() }
                }
            }
            for store in coordinator.stores { try? coordinator.remove(store) }
            if let filler { try FileManager.default.removeItem(at: filler) }
        }
        if fault == .failedWriteBack {
            try disk.freeStorage()
            try disk.remountWritable()
        }
        let error = try #require(failure, "every save across stores succeeded on a failing disk")
        #expect([.io, .readOnly, .savePending].contains(Self.storeCode(error)), "\(error)")
        let context = ManagedObjectContext(coordinator: try open())
        #expect(try serials("Left", context) == serials("Right", context))
    }
}
