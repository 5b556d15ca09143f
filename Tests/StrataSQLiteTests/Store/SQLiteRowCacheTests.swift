import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Contexts of one coordinator share the snapshots its stores gave: two contexts loading the
/// same object read the store once, as long as each accepts the snapshot's age.
@Suite struct SQLiteRowCacheTests {
    let directory: TemporaryDirectory
    let coordinator: PersistentStoreCoordinator
    let store: SQLiteStore
    let team: ObjectID

    init() throws {
        directory = try TemporaryDirectory()
        (coordinator, store) = try SQLitePushDownFixture.coordinator(with: directory.file("cache.sqlite"))
        let writer = ManagedObjectContext(coordinator: coordinator)
        team = try writer.performAndWait {
            let team = try writer.insertNewObject(forEntityName: "Team")
            try team.setValue("Red", forKey: "name")
            try writer.save()
            return team.objectID
        }
    }

    /// Loads the team's name in a new context with `staleness`, and counts the store's loads.
    func load(staleness: TimeInterval = -1) throws -> (name: AttributeValue, loads: Int) {
        let context = ManagedObjectContext(coordinator: coordinator)
        let before = store.statistics.singleLoads
        let name = try context.performAndWait {
            context.stalenessInterval = staleness
            return try context.existingObject(with: team).value(forKey: "name")
        }
        return (name, store.statistics.singleLoads - before)
    }

    @Test func twoContextsLoadingOneObjectReadTheStoreOnce() throws {
        #expect(try load().loads == 1)
        #expect(try load().loads == 0)
        #expect(try load(staleness: 60).loads == 0)
    }

    @Test func aStalenessIntervalOfZeroAlwaysReadsTheStore() throws {
        _ = try load()
        #expect(try load(staleness: 0).loads == 1)
        #expect(try load(staleness: 0).loads == 1)
    }

    @Test func aSnapshotOlderThanTheIntervalIsReadAgain() throws {
        _ = try load()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try load(staleness: 0.05).loads == 1)
    }

    @Test func aSaveMakesTheNextLoadReadTheStore() throws {
        _ = try load()
        let writer = ManagedObjectContext(coordinator: coordinator)
        try writer.performAndWait {
            try writer.existingObject(with: team).setValue("Blue", forKey: "name")
            try writer.save()
        }
        let (name, loads) = try load()
        #expect(name == "Blue")
        #expect(loads == 1)
    }
}
