import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Batched fetches load each page of objects with one statement per 128 primary keys, and
/// prefetching a to-many key path loads every owner's members and then every member's row in
/// batches: no statement per object.
@Suite struct SQLiteBatchLoadingTests {
    let directory: TemporaryDirectory
    let coordinator: PersistentStoreCoordinator
    let store: SQLiteStore

    /// 30 teams of 10 people each, in the push-down tests' model.
    init() async throws {
        directory = try TemporaryDirectory()
        (coordinator, store) = try SQLitePushDownFixture.coordinator(with: directory.file("teams.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        try await context.perform {
            for number in 1...30 {
                let team = try context.insertNewObject(forEntityName: "Team")
                try team.setValue(.string("team \(number)"), forKey: "name")
                for member in 1...10 {
                    let person = try context.insertNewObject(forEntityName: "Person")
                    try person.setValue(.string("person \(number)-\(member)"), forKey: "name")
                    try person.setObject(team, forKey: "team")
                }
            }
            try context.save()
        }
    }

    @Test func aBatchedFetchLoadsEachPageWithOneStatementPer128Keys() async throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let (single, batches) = (store.statistics.singleLoads, store.statistics.batchLoads)
        let titles = try await context.perform {
            var request = FetchRequest<ManagedObject>(entityName: "Person")
            request.fetchBatchSize = 100
            return try context.fetch(request).map { try $0.value(forKey: "name") }
        }
        #expect(Set(titles).count == 300)
        #expect(store.statistics.singleLoads == single)
        #expect(store.statistics.batchLoads - batches == 3, "one statement for each page of 100")
    }

    @Test func prefetchingAToManyKeyPathLoadsMembersAndRowsInBatches() async throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let (single, batches) = (store.statistics.singleLoads, store.statistics.batchLoads)
        let count = try await context.perform {
            var request = FetchRequest<ManagedObject>(entityName: "Team")
            request.relationshipKeyPathsForPrefetching = ["members"]
            return try context.fetch(request).flatMap { team in
                try team.objects(forKey: "members").map { try $0.value(forKey: "name") }
            }.count
        }
        #expect(count == 300)
        #expect(store.statistics.singleLoads == single)
        #expect(
            store.statistics.batchLoads - batches == 1 + 3,
            "one statement for the 30 teams' members, three for the rows of 300 people")
    }

    @Test func withoutPrefetchingEachTeamsMembersCostAStatement() async throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let single = store.statistics.singleLoads
        try await context.perform {
            for team in try context.fetch(FetchRequest<ManagedObject>(entityName: "Team")) {
                _ = try team.objects(forKey: "members")
            }
        }
        #expect(store.statistics.singleLoads - single >= 30)
    }
}
