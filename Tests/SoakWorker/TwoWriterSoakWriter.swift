import Foundation
import Strata
import StrataTestSupport

/// One writer of `TwoWriterSoak`, which describes what it saves and prints. With
/// `skips-every-fifth-save`, every fifth save is acknowledged but never made: the negative
/// control of the soak's checks.
struct TwoWriterSoakWriter {
    let storeType: StoreType
    let url: URL
    let writer: String
    let seconds: Double
    let skipsEveryFifthSave: Bool
    private var state: UInt64

    /// Reads `<store> <writer> <seconds> <seed> [skips-every-fifth-save]`; `nil` when they do not parse.
    init?(storeType: StoreType, arguments: [String]) {
        let skips = arguments.count == 5 && arguments[4] == "skips-every-fifth-save"
        guard arguments.count == 4 || skips, let seconds = Double(arguments[2]), let seed = UInt64(arguments[3]) else {
            return nil
        }
        self.storeType = storeType
        url = URL(fileURLWithPath: arguments[0])
        writer = arguments[1]
        self.seconds = seconds
        skipsEveryFifthSave = skips
        state = max(seed, 1)
    }

    /// Saves until the time is up, printing `ack <serial> <deleted serial or -1>` after each
    /// save and `done <saves> <conflicts>` at the end.
    mutating func run() throws {
        let coordinator = try PersistentStoreCoordinator(model: TwoWriterSoak.model, storeTypes: [storeType])
        _ = try coordinator.addStore(type: storeType.name, at: url)
        let deadline = Date().addingTimeInterval(seconds)
        var live: [Int64] = []
        var serial: Int64 = 0
        var saves = 0
        var conflicts = 0
        while Date() < deadline {
            serial += 1
            if skipsEveryFifthSave, serial % 5 == 0 {
                FileHandle.standardOutput.write(Data("ack \(serial) -1\n".utf8))
                continue
            }
            let deleting = serial % 4 == 0 && !live.isEmpty ? live.remove(at: random(below: live.count)) : nil
            while try !save(serial, deleting: deleting, through: coordinator) { conflicts += 1 }
            live.append(serial)
            saves += 1
            FileHandle.standardOutput.write(Data("ack \(serial) \(deleting ?? -1)\n".utf8))
        }
        FileHandle.standardOutput.write(Data("done \(saves) \(conflicts)\n".utf8))
    }

    /// The next of a seeded sequence of numbers below `bound` (xorshift).
    private mutating func random(below bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }

    /// Saves the entry `serial`, deleting the entry `deleting`, with the tally counting both;
    /// `false` when the save met another writer's and must be tried again.
    private func save(_ serial: Int64, deleting: Int64?, through coordinator: PersistentStoreCoordinator) throws
        -> Bool
    {
        let context = ManagedObjectContext(coordinator: coordinator)
        let writer = writer
        return try context.performAndWait { () throws -> Bool in
            guard let tally = try context.fetch(FetchRequest<ManagedObject>(entityName: "Tally")).first else {
                throw StoreError(code: .unknownObject, message: "The soak store has no Tally.")
            }
            let entry = try context.insertNewObject(forEntityName: "Entry")
            try entry.setValue(.string(writer), forKey: "writer")
            try entry.setValue(.integer64(serial), forKey: "serial")
            try Self.increment("inserted", of: tally)
            if let deleting {
                var request = FetchRequest<ManagedObject>(entityName: "Entry")
                request.predicate = try FetchPredicate(
                    format: "writer == %@ AND serial == %@", arguments: [writer, deleting])
                guard let doomed = try context.fetch(request).first else {
                    throw StoreError(code: .unknownObject, message: "Entry \(writer) \(deleting) is missing.")
                }
                try context.delete(doomed)
                try Self.increment("deleted", of: tally)
            }
            do {
                try context.save()
                return true
            } catch let error as ContextError where error.code == .mergeConflict {
                return false
            }
        }
    }

    private static func increment(_ key: String, of object: ManagedObject) throws {
        try object.setValue(.integer64((try object.value(forKey: key).get(Int64.self) ?? 0) + 1), forKey: key)
    }
}
