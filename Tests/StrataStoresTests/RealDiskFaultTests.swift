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

    /// A mounted disk image, or `nil` after saying why it cannot be made.
    static func disk() -> DiskImage? {
        do {
            return try DiskImage(megabytes: 8)
        } catch {
            if DiskImage.isRequired {
                Issue.record("Real disk faults cannot be tested: \(error)")
            } else {
                print("Real disk faults not tested: \(error)")
            }
            return nil
        }
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
            var failure: (any Error)?
            for serial in 10..<60 {
                do {
                    try stack.save(serial)
                    saved.append(Int64(serial))
                } catch {
                    failure = error
                    break
                }
            }
            let error = try #require(failure, "\(type): every save fitted on a full disk")
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

    /// A save across an SQLite and an LMDB store of one folder (through the save log) on a disk
    /// that fills up: whatever fails, after freeing space and reopening, both stores hold the
    /// same saves.
    @Test func aSaveAcrossStoresOnAFullDiskIsWholeOrAbsent() throws {
        guard let disk = Self.disk() else { return }
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
            let context = ManagedObjectContext(coordinator: try open())
            let filler = try disk.fill()
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
            try FileManager.default.removeItem(at: filler)
        }
        let error = try #require(failure, "every save across stores fitted on a full disk")
        #expect([.io, .savePending].contains(Self.storeCode(error)), "\(error)")
        let context = ManagedObjectContext(coordinator: try open())
        #expect(try serials("Left", context) == serials("Right", context))
    }
}
