import Foundation
import Strata
import StrataLMDB
import StrataSQLite

/// The small saves of `save-small` and `save-striped`: one save per pair of records.
enum StripedSaves {
    /// How many saves a run makes for `n` records: 200, or fewer when there are fewer pairs.
    static func count(_ n: Int) -> Int { min(200, n / 2) }

    /// The records in pairs, one pair per save.
    static func pairs(of records: [ItemRecord]) -> [ArraySlice<ItemRecord>] {
        (0..<count(records.count)).map { records[$0 * 2..<$0 * 2 + 2] }
    }

    /// The model of `save-striped`: the benchmark's item in configuration "Main", and the same
    /// attributes as "SideItem" in configuration "Side".
    static func makeModel() throws -> ManagedObjectModel {
        let model = ManagedObjectModel {
            for name in [BenchModel.entity, "SideItem"] {
                EntityDescription(name) { for attribute in BenchModel.attributes { attribute } }
            }
            ConfigurationDescription("Main", entities: [BenchModel.entity])
            ConfigurationDescription("Side", entities: ["SideItem"])
        }
        try model.freeze()
        return model
    }
}

extension StrataSubject {
    /// The time of ``StripedSaves/count(_:)`` saves of two new items each: both into a new store
    /// of the subject's type, or, when `striped`, one into it and one into a store of the other
    /// type beside it. `nil` for stores other than SQLite and LMDB.
    func timeSmallSaves(striped: Bool) throws -> Duration? {
        guard setup.type == .sqlite || setup.type == .lmdb else { return nil }
        let folder = try scratch.fresh(striped ? "striped" : "small")
        let coordinator: PersistentStoreCoordinator
        if striped {
            let side: (type: StoreType, file: String) =
                setup.type == .sqlite ? (.lmdb, "side.lmdb") : (.sqlite, "side.sqlite")
            coordinator = try PersistentStoreCoordinator(
                model: try StripedSaves.makeModel(), storeTypes: [.sqlite, .lmdb])
            try coordinator.addStore(type: setup.type.name, configuration: "Main", at: try setup.url(in: folder))
            try coordinator.addStore(
                type: side.type.name, configuration: "Side", at: folder.appendingPathComponent(side.file))
        } else {
            coordinator = try open(folder)
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        let pairs = StripedSaves.pairs(of: records)
        return try context.performAndWait {
            try clock {
                for pair in pairs {
                    for (index, record) in pair.enumerated() {
                        let entity = striped && index == 1 ? "SideItem" : BenchModel.entity
                        try BenchModel.fill(try context.insertNewObject(forEntityName: entity), from: record)
                    }
                    try context.save()
                }
            }
        }
    }
}
