import Foundation
import Strata

/// The worker commands that meet faults from the system: a full disk and a folder made
/// read-only while the store is open.
extension ConformanceWorker {
    /// Opens the store at `url` and performs the first ``fullDiskSaves`` saves of
    /// ``DurabilityScenario/objects``, reporting `ready`; then limits the size of every file the
    /// process writes (`RLIMIT_FSIZE`) to that of the largest file in the store's folder, as a
    /// full disk would, and saves ``fullDiskObjects`` new `Sample`s, reporting
    /// `save saved`, `save error <code> <message>` for a `StoreError`, or `save other <error>`.
    static func saveOnFullDisk(at url: URL, storeType: StoreType, options: StoreOptions) throws {
        let stack = try openAndSave(at: url, storeType: storeType, options: options)
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit()
        getrlimit(RLIMIT_FSIZE_RESOURCE, &limit)
        limit.rlim_cur = rlim_t(try largestFileSize(in: url.deletingLastPathComponent()))
        guard setrlimit(RLIMIT_FSIZE_RESOURCE, &limit) == 0 else {
            report("setup Could not limit the file size: errno \(errno).")
            return
        }
        do {
            for serial in 1_000..<(1_000 + fullDiskObjects) {
                _ = try stack.insert(
                    ConformanceModel.sample, ["serial": .integer64(Int64(serial)), "binary": .binary(fullDiskValue)])
            }
            try stack.save()
            report("save saved")
        } catch let error as StoreError {
            report("save error \(error.code) \(error.message)")
        } catch {
            report("save other \(type(of: error)): \(error)")
        }
    }

    /// How many saves the full-disk check's store holds before the disk fills.
    static let fullDiskSaves = 3

    /// How many `Sample`s the save that meets the full disk inserts, each carrying
    /// ``fullDiskValue``: a megabyte in all, more than the store's files hold, in values small
    /// enough for every store to keep in its own file rather than beside it.
    static let fullDiskObjects = 256

    /// The bytes each `Sample` of the save that meets the full disk carries.
    static let fullDiskValue = Data(repeating: 0xA5, count: 4_096)

    #if canImport(Glibc)
        private static let RLIMIT_FSIZE_RESOURCE = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #else
        private static let RLIMIT_FSIZE_RESOURCE = RLIMIT_FSIZE
    #endif

    /// The size of the largest file in `folder` and below.
    private static func largestFileSize(in folder: URL) throws -> Int {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])
        var largest = 0
        while let file = enumerator?.nextObject() as? URL {
            largest = max(largest, try file.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0)
        }
        return largest
    }

    /// Gives the folder of the store at `url` to ``nobody`` and becomes `nobody` when running
    /// as root, so that permissions apply. Opens the store and performs the first
    /// ``fullDiskSaves`` saves of ``DurabilityScenario/objects``, reporting `ready`; then takes
    /// write permission on the folder away (mode 0555) and performs the next save, reporting
    /// `save saved`, `save error <code> <message>` or `save other <error>`; removes the store,
    /// reporting `closed` or `close error <error>`. The folder stays read-only until the worker
    /// has ended, so that whatever the store still writes on its way out meets it too; the suite
    /// gives the permission back.
    static func saveInReadOnlyFolder(at url: URL, storeType: StoreType, options: StoreOptions) throws {
        let folder = url.deletingLastPathComponent().path
        if geteuid() == 0, chown(folder, nobody, nobody) != 0 {
            report("setup Could not give '\(folder)' to user \(nobody): errno \(errno).")
            return
        }
        try giveUpRootPrivileges()
        let stack = try openAndSave(at: url, storeType: storeType, options: options)
        guard chmod(folder, 0o555) == 0 else {
            report("setup Could not make '\(folder)' read-only: errno \(errno).")
            return
        }
        guard access(folder, W_OK) != 0 else {
            report("setup '\(folder)' is still writable by user \(geteuid()).")
            return
        }
        do {
            try DurabilityScenario.objects.performObjectSave(fullDiskSaves + 1, on: stack)
            report("save saved")
        } catch let error as StoreError {
            report("save error \(error.code) \(error.message)")
        } catch {
            report("save other \(type(of: error)): \(error)")
        }
        do {
            try stack.coordinator.remove(stack.store)
            report("closed")
        } catch {
            report("close error \(error)")
        }
    }

    /// Opens the store at `url` and performs the first ``fullDiskSaves`` saves of
    /// ``DurabilityScenario/objects``, reporting `ready`.
    private static func openAndSave(at url: URL, storeType: StoreType, options: StoreOptions) throws -> CheckStack {
        let coordinator = try PersistentStoreCoordinator(
            model: ConformanceModel.model, storeTypes: [storeType],
            valueTransformers: ConformanceModel.valueTransformers)
        let stack = CheckStack(
            coordinator: coordinator, store: try coordinator.addStore(type: storeType.name, at: url, options: options))
        for index in 1...fullDiskSaves { try DurabilityScenario.objects.performObjectSave(index, on: stack) }
        report("ready \(fullDiskSaves)")
        return stack
    }
}
