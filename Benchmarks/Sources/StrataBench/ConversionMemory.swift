import Foundation
import Strata

/// The peak memory of converting a large store: a child process fills a store of N objects
/// through contexts of a few thousand objects each, then another child opens it, migrates it
/// with ``PersistentStoreCoordinator/migratePersistentStore(_:to:type:options:progress:)`` and
/// reports its time and its own peak resident size, which the filling cannot touch.
enum ConversionMemory {
    /// How many parents (each with its 10 children) one filling context inserts before saving.
    private static let parentsPerSave = 500

    /// The time and peak resident size of converting a `store` store of `count` objects to its
    /// conversion target, each step in a child process of its own.
    static func measure(store: String, count: Int, log: (String) -> Void) throws -> (milliseconds: Double, peak: Double)
    {
        let scratch = try ScratchDirectory("convert-memory")
        defer { scratch.remove() }
        let folder = try scratch.fresh("source")
        log("Filling a \(store) store of \(count) objects")
        _ = try MemoryProbe.runChild(["fill", store, String(count), folder.path])
        log("Converting it in a child process")
        let output = folder.appendingPathComponent("probe-convert.txt")
        let figures = try MemoryProbe.runChild([
            "probe", store, MemoryProbe.Kind.convert.rawValue, folder.path, output.path,
        ])
        guard let conversion = figures.first else {
            throw FloorError(description: "the conversion probe wrote nothing")
        }
        return conversion
    }

    /// The child's side of filling: a store of `count` objects of the benchmark's data in `folder`,
    /// saved a few thousand objects at a time so that filling needs little memory.
    static func fill(store: String, count: Int, folder: URL) throws {
        let setup = StoreSetup.named(store)
        let data = BenchData(count: count)
        let coordinator = try PersistentStoreCoordinator(
            model: try BenchModel.makeModel(), storeTypes: StrataSubject.storeTypes)
        try coordinator.addStore(type: setup.type.name, at: folder.appendingPathComponent(setup.fileName))
        let parents = Int64(data.parentCount)
        let perParent = Int64(BenchData.childrenPerParent)
        for first in stride(from: Int64(1), through: parents, by: parentsPerSave) {
            let last = min(first + Int64(parentsPerSave) - 1, parents)
            let children = (parents + (first - 1) * perParent + 1)...(parents + last * perParent)
            try save(data, ids: Array(first...last) + Array(children), coordinator)
        }
        let firstLoose = parents * (perParent + 1) + 1
        for first in stride(from: firstLoose, through: Int64(count), by: parentsPerSave * 10) {
            try save(data, ids: Array(first...min(first + Int64(parentsPerSave * 10) - 1, Int64(count))), coordinator)
        }
    }

    /// Inserts the objects `ids`, gives each parent among them its children (which are among
    /// them too), and saves.
    private static func save(_ data: BenchData, ids: [Int64], _ coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            var objects: [Int64: ManagedObject] = [:]
            for id in ids {
                let object = try context.insertNewObject(forEntityName: BenchModel.entity)
                try BenchModel.fill(object, from: data.record(id))
                objects[id] = object
            }
            for id in ids {
                let children = data.record(id).children
                guard !children.isEmpty, let parent = objects[id] else { continue }
                try parent.setObjects(children.compactMap { objects[$0] }, forKey: "children")
            }
            try context.save()
        }
    }
}
