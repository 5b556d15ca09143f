import Foundation
import Strata
import StrataBinary
import StrataLMDB
import StrataPostgres
import StrataSQLite
import StrataTelemetry
import StrataXML

/// A Strata store used as an application uses it: a coordinator, a context, fetches and saves.
/// A store of every object, made once, serves the read workloads; update, delete and convert
/// work on a fresh copy of it. That store is the insert workload's first run (its warm-up, which
/// is not counted), or is filled on first use when the insert workload does not run.
final class StrataSubject: BenchSubject {
    static let storeTypes: [StoreType] = [.sqlite, .lmdb, .xml, .binary, .postgres, .inMemory]

    let setup: StoreSetup
    let data: BenchData
    let records: [ItemRecord]
    let model: ManagedObjectModel
    let scratch: ScratchDirectory
    private let fullFolder: URL
    private var isFull = false
    /// The in-memory stores, by the path of the folder that stands for each.
    private var memoryStores: [String: any IncrementalStore] = [:]
    /// What watches the coordinators ``open(_:history:)`` makes: `MetricsAndTracing` while an
    /// observed workload runs, else nothing.
    private var observer: (any OperationObserver)?

    var store: String { setup.name }

    init(_ setup: StoreSetup, data: BenchData, records: [ItemRecord], model: ManagedObjectModel) throws {
        self.setup = setup
        self.data = data
        self.records = records
        self.model = model
        let scratch = try ScratchDirectory("strata-\(setup.name)")
        self.scratch = scratch
        fullFolder = try scratch.fresh("full")
        if setup.isOnServer { try PostgresPlaces.drop(fullFolder) }
    }

    /// The folder of the store of every object, filled first when it is not yet.
    var full: URL {
        get throws {
            if !isFull { try insertAll(try open(fullFolder)) }
            isFull = true
            return fullFolder
        }
    }

    /// A new, empty folder `name`, whose store on the server (or in memory) is gone too.
    private func fresh(_ name: String) throws -> URL {
        let folder = try scratch.fresh(name)
        if setup.isOnServer { try PostgresPlaces.drop(folder) }
        memoryStores[folder.path] = nil
        return folder
    }

    /// A copy of the folder `source` as `name`, with a copy of its store on the server; for
    /// the in-memory store, a copy of its store made by migrating it, which keeps its
    /// identifier and references.
    private func copy(_ source: URL, as name: String) throws -> URL {
        guard !setup.isInMemory else {
            let folder = try scratch.fresh(name)
            let coordinator = try open(source)
            guard let store = coordinator.stores.first else { return folder }
            memoryStores[folder.path] = try coordinator.migratePersistentStore(
                store, to: try setup.url(in: folder), type: setup.type.name)
            return folder
        }
        let folder = try scratch.copy(source, as: name)
        if setup.isOnServer { try PostgresPlaces.copy(source, to: folder) }
        return folder
    }

    /// A new coordinator with the store in `folder` added, recording its history when `history`.
    func open(_ folder: URL, history: Bool = false) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(
            model: model, storeTypes: Self.storeTypes, observer: observer)
        guard !setup.isInMemory else {
            let store = try memoryStores[folder.path] ?? InMemoryStore.open(model: model)
            memoryStores[folder.path] = store
            try coordinator.add(store)
            return coordinator
        }
        try coordinator.addStore(
            type: setup.type.name, at: try setup.url(in: folder),
            options: StoreOptions(tracksPersistentHistory: history))
        return coordinator
    }

    func time(_ workload: Workload) throws -> Duration? {
        // Every other workload reads or copies the full store: fill it before any timing.
        if workload != .insert { _ = try full }
        switch workload {
        case .insert:
            let coordinator = try open(isFull ? try fresh("insert") : fullFolder)
            defer { isFull = true }
            return try clock { try insertAll(coordinator) }
        case .fetchAll: return try clock { try fetch(FetchRequest<ManagedObject>(entityName: BenchModel.entity)) }
        case .fetchIndexed:
            var request = FetchRequest<ManagedObject>(entityName: BenchModel.entity)
            request.predicate = try FetchPredicate(format: "number < %lld", data.indexedBound)
            return try clock { try fetch(request) }
        case .fetchIndexedTyped:
            let bound = data.indexedBound
            return try clock {
                try fetch(try FetchRequest<BenchItem>(predicate: #Predicate { $0.number < bound }))
            }
        case .readTyped:
            let bound = data.indexedBound
            return try clock {
                try fetch(try FetchRequest<BenchItem>(predicate: #Predicate { $0.number < bound })) { $0.touch() }
            }
        case .loadByID: return try loadByID()
        case .traverse: return try traverse()
        case .update: return try change { object, context in try object.setValue(.double(-1), forKey: "score") }
        case .delete: return try change { object, context in try context.delete(object) }
        case .openCount:
            guard !setup.isInMemory else { return nil }
            return try clock {
                let context = ManagedObjectContext(coordinator: try open(full))
                consume(
                    try context.performAndWait {
                        try context.count(for: FetchRequest<ManagedObject>(entityName: BenchModel.entity))
                    })
            }
        case .convert: return try convert()
        case .migrate: return try migrate()
        case .memory: return nil
        case .batchUpdate, .batchDelete, .batchCompute:
            guard setup.type == .sqlite || setup.type == .lmdb || setup.isOnServer else { return nil }
            let coordinator = try open(try copy(full, as: "changed"))
            if workload != .batchDelete {
                let value =
                    workload == .batchUpdate
                    ? FetchExpression.constant(.double(-1)) : try FetchExpression(format: "score * 2 + number")
                let request = BatchUpdateRequest(entityName: BenchModel.entity, propertiesToUpdate: ["score": value])
                return try clock { consume(try coordinator.execute(request).status) }
            }
            let request = BatchDeleteRequest(entityName: BenchModel.entity)
            return try clock { consume(try coordinator.execute(request).status) }
        case .saveSmall, .saveStriped: return try timeSmallSaves(striped: workload == .saveStriped)
        case .fetchIndexedObserved, .saveSmallObserved:
            observer = MetricsAndTracing()
            defer { observer = nil }
            return try time(workload.floorWorkload)
        case .insertHistory, .updateHistory, .deleteHistory:
            guard setup.type == .sqlite || setup.type == .lmdb || setup.isOnServer else { return nil }
            if workload == .insertHistory {
                let coordinator = try open(try fresh("insert"), history: true)
                return try clock { try insertAll(coordinator) }
            }
            if workload == .updateHistory {
                return try change(history: true) { object, context in try object.setValue(.double(-1), forKey: "score")
                }
            }
            return try change(history: true) { object, context in try context.delete(object) }
        }
    }

    private func insertAll(_ coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            var objects: [ManagedObject] = []
            objects.reserveCapacity(records.count)
            for record in records {
                let object = try context.insertNewObject(forEntityName: BenchModel.entity)
                try BenchModel.fill(object, from: record)
                objects.append(object)
            }
            for record in records where !record.children.isEmpty {
                try objects[Int(record.id) - 1].setObjects(
                    record.children.map { objects[Int($0) - 1] }, forKey: "children")
            }
            try context.save()
        }
    }

    /// Opens the full store and fetches `request` as loaded objects, reading every attribute.
    /// Fetches `request` with values loaded and reads every attribute of each object, by key or
    /// with `touch`.
    private func fetch<Result: ManagedObject>(
        _ request: FetchRequest<Result>, touch: (Result) throws -> Int = { try BenchModel.touch($0) }
    ) throws {
        var request = request
        request.returnsObjectsAsFaults = false
        let context = ManagedObjectContext(coordinator: try open(full))
        let sum = try context.performAndWait {
            try context.fetch(request).reduce(0) { $0 &+ (try touch($1)) }
        }
        consume(sum)
    }

    /// The IDs of the objects load, update and delete touch, found once in the full store. A
    /// copy of the store has the same identifier and references, so they name its objects too.
    private var touchedObjectIDs: [ObjectID] = []

    private func touched() throws -> [ObjectID] {
        if touchedObjectIDs.isEmpty {
            var request = FetchRequest<ManagedObject>(entityName: BenchModel.entity)
            request.sortDescriptors = [FetchSortDescriptor("number")]
            let context = ManagedObjectContext(coordinator: try open(full))
            let all = try context.performAndWait { try context.fetchObjectIDs(request) }
            touchedObjectIDs = data.touchedIDs.map { all[Int($0) - 1] }
        }
        return touchedObjectIDs
    }

    private func loadByID() throws -> Duration {
        let ids = try touched()
        let coordinator = try open(full)
        let context = ManagedObjectContext(coordinator: coordinator)
        return try clock {
            consume(
                try context.performAndWait {
                    try ids.reduce(0) { $0 &+ (try BenchModel.touch(context.object(with: $1))) }
                })
        }
    }

    private func traverse() throws -> Duration {
        let coordinator = try open(full)
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest<ManagedObject>(entityName: BenchModel.entity)
        request.predicate = try FetchPredicate(format: "number < %d", data.traversedParents)
        return try clock {
            let sum = try context.performAndWait {
                var sum = 0
                for parent in try context.fetch(request) {
                    for child in try parent.objects(forKey: "children") {
                        if case .string(let name) = try child.value(forKey: "name") { sum &+= name.utf8.count }
                    }
                }
                return sum
            }
            consume(sum)
        }
    }

    /// Applies `body` to each touched object of a fresh copy of the full store, then saves;
    /// with `history`, the store records the save in its persistent history, after an untimed
    /// first save of one new object has created the history tables.
    private func change(
        history: Bool = false, _ body: @escaping (ManagedObject, ManagedObjectContext) throws -> Void
    ) throws -> Duration {
        let coordinator = try open(try copy(full, as: "changed"), history: history)
        let ids = try touched()
        let context = ManagedObjectContext(coordinator: coordinator)
        if history {
            try context.performAndWait {
                try BenchModel.fill(try context.insertNewObject(forEntityName: BenchModel.entity), from: records[0])
                try context.save()
            }
        }
        return try clock {
            try context.performAndWait {
                for id in ids { try body(context.object(with: id), context) }
                try context.save()
            }
        }
    }

    private func convert() throws -> Duration? {
        guard let target = setup.conversionTarget.map(StoreSetup.named) else { return nil }
        let coordinator = try open(try copy(full, as: "source"))
        let destination = try fresh("converted").appendingPathComponent(target.fileName)
        guard let source = coordinator.stores.first else { return nil }
        return try clock { try coordinator.migratePersistentStore(source, to: destination, type: target.type.name) }
    }

    /// Migrates a copy of the full store in place to ``BenchModel/makeNextVersion()`` by its
    /// inferred mapping (worked out before the clock starts); SQLite and LMDB only.
    private func migrate() throws -> Duration? {
        guard setup.type == .sqlite || setup.type == .lmdb else { return nil }
        let url = try setup.url(in: try copy(full, as: "migrated"))
        let next = try BenchModel.makeNextVersion()
        let mapping = try MappingModel.inferred(from: model, to: next)
        let manager = MigrationManager(sourceModel: model, destinationModel: next)
        return try clock { try manager.migrateStore(at: url, type: setup.type, mapping: mapping) }
    }
}
