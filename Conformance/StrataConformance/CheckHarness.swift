import Foundation
import Strata

/// What a check works with: a fresh folder, the store under test, the oracle, and a seeded
/// generator. One harness serves one check and removes its folder when done.
final class CheckHarness {
    let suite: ConformanceSuite
    /// The check's own folder.
    let directory: URL
    /// The seed of ``random``, printed in failure messages of random workloads.
    let seed: UInt64
    /// A generator seeded from the suite's seed and the check's identifier.
    var random: SeededGenerator
    /// Memory-storage stores by file name, kept so that reading back finds the same objects.
    private var memoryStores: [String: any IncrementalStore] = [:]
    private var oracleStores: [String: any IncrementalStore] = [:]
    /// The server stores handed out, destroyed when the check ends.
    private var serverStores: Set<URL> = []

    /// Creates the harness of the check identified by `checkID`.
    init(suite: ConformanceSuite, checkID: String) throws {
        self.suite = suite
        directory = suite.workDirectory.appendingPathComponent(checkID, isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        // Another check's harness may remove the suite's folder between the two `mkdir`s
        // (see `deinit`): try again, and the check's folder then keeps it.
        for attempt in 1...5 {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                break
            } catch  where attempt < 5 {
                continue
            }
        }
        seed = suite.seed ^ Self.stableHash(checkID)
        random = SeededGenerator(seed: seed)
    }

    deinit {
        if !serverStores.isEmpty, let coordinator = try? makeCoordinator() {
            for url in serverStores { try? coordinator.destroyStore(type: suite.storeType.name, at: url) }
        }
        // The folder is scratch space; a leftover one is removed by the next run of the check.
        try? FileManager.default.removeItem(at: directory)
        // The suite's own temporary folder goes with its last check folder. `rmdir` removes
        // only an empty folder, so a check running beside this one keeps its files.
        if suite.ownsWorkDirectory { rmdir(suite.workDirectory.path) }
    }

    /// The model every check uses.
    var model: ManagedObjectModel { ConformanceModel.model }

    /// Whether the store under test keeps its objects beyond the process: in a file, or on a server.
    var isFileBacked: Bool { suite.storage != .memory }

    /// The file or server URL of the store called `name`, or `nil` for memory storage.
    func storeURL(_ name: String = "store") -> URL? {
        switch suite.storage {
        case .memory: return nil
        case .file(let pathExtension):
            return directory.appendingPathComponent(name).appendingPathExtension(pathExtension)
        case .server(let locations):
            let url = locations.locate(serverPlace(name))
            serverStores.insert(url)
            return url
        }
    }

    /// The place name of the store called `name` on the server: the suite's run, the check and
    /// the name, as lowercase letters, digits and underscores, hashed to fit 63 characters.
    private func serverPlace(_ name: String) -> String {
        let run = suite.workDirectory.lastPathComponent
        let readable =
            "s_"
            + String(
                String(directory.lastPathComponent + "_" + name).lowercased().map {
                    $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_"
                }.prefix(40))
        return readable + "_" + String(Self.stableHash(run + "/" + directory.lastPathComponent + "/" + name), radix: 16)
    }

    /// A new coordinator that knows the store type under test.
    func makeCoordinator() throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator(
            model: model, storeTypes: [suite.storeType], valueTransformers: ConformanceModel.valueTransformers)
    }

    /// Opens the store called `name` (holding `configuration`) in a new coordinator, runs
    /// `body`, and removes the store again. A second call with the same name reads back what
    /// the first one saved: from the file, or from the same in-memory instance through a new
    /// coordinator and context (never from a cache).
    func withStore<T>(
        _ name: String = "store", configuration: String? = nil, options: StoreOptions? = nil,
        body: (CheckStack) throws -> T
    ) throws -> T {
        let coordinator = try makeCoordinator()
        let store = try openStore(name, configuration: configuration, options: options, in: coordinator)
        defer { try? coordinator.remove(store) }
        return try body(CheckStack(coordinator: coordinator, store: store))
    }

    /// Adds the store called `name` to `coordinator`, opening it as ``withStore(_:configuration:options:_:)`` does.
    func openStore(
        _ name: String = "store", configuration: String? = nil, options: StoreOptions? = nil,
        in coordinator: PersistentStoreCoordinator
    ) throws -> any IncrementalStore {
        let options = options ?? suite.options
        if let url = storeURL(name) {
            return try coordinator.addStore(
                type: suite.storeType.name, configuration: configuration, at: url, options: options)
        }
        if let store = memoryStores[name] {
            try coordinator.add(store)
            return store
        }
        let store = try coordinator.addStore(type: suite.storeType.name, configuration: configuration, options: options)
        memoryStores[name] = store
        return store
    }

    /// Opens the store called `name` holding objects of `model`, a model of the check's own, in a
    /// new coordinator, runs `body`, and removes the store again; a second call reads back what
    /// the first saved, as ``withStore(_:configuration:options:body:)`` does.
    func withStore<T>(of model: ManagedObjectModel, named name: String, _ body: (CheckStack) throws -> T) throws -> T {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [suite.storeType])
        let store = try openStore(name, in: coordinator)
        defer { try? coordinator.remove(store) }
        return try body(CheckStack(coordinator: coordinator, store: store))
    }

    /// Runs `body` on the oracle: an in-memory store called `name`, kept like a memory-storage store.
    func withOracle<T>(
        _ name: String = "oracle", configuration: String? = nil, _ body: (CheckStack) throws -> T
    ) throws -> T {
        let coordinator = try PersistentStoreCoordinator(
            model: model, valueTransformers: ConformanceModel.valueTransformers)
        let store: any IncrementalStore
        if let kept = oracleStores[name] {
            store = kept
            try coordinator.add(store)
        } else {
            store = try coordinator.addStore(type: StoreType.inMemory.name, configuration: configuration)
            oracleStores[name] = store
        }
        defer { try? coordinator.remove(store) }
        return try body(CheckStack(coordinator: coordinator, store: store))
    }

    /// FNV-1a of `text`: a hash that is the same in every process, unlike `Hasher`.
    private static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
