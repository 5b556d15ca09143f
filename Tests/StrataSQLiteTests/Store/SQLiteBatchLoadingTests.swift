import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Batched fetches load each page of objects with one statement per 128 primary keys;
/// prefetching a to-many key path, or firing the to-many faults of a fetch's results, loads
/// the owners' members and then the members' rows in batches: no statement per object.
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

    @Test func deletingAnOwnerLoadsTheMembersItNullifiesInOneBatch() async throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let teamID = try await context.perform {
            var request = FetchRequest<ManagedObject>(entityName: "Team")
            request.predicate = try FetchPredicate(format: "name == %@", "team 7")
            return try #require(try context.fetchObjectIDs(request).first)
        }
        let (single, batches) = (store.statistics.singleLoads, store.statistics.batchLoads)
        let members = try await context.perform {
            let team = context.object(with: teamID)
            let members = try team.objects(forKey: "members")
            try context.delete(team)
            #expect(try members.allSatisfy { try $0.object(forKey: "team") == nil })
            try context.save()
            return members.map(\.objectID)
        }
        #expect(members.count == 10)
        #expect(store.statistics.singleLoads - single == 2, "the team's row and the list of its members")
        #expect(
            store.statistics.batchLoads - batches == 2,
            "its other to-many's list when its rules apply, then its ten members' rows together")
        for member in members { #expect(try store.snapshot(for: member)?.values["team"] == .null) }
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

    @Test func firingEachFetchedTeamsMembersFaultLoadsTheTeamsAndTheirMembersTogether() async throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let (single, batches) = (store.statistics.singleLoads, store.statistics.batchLoads)
        let names = try await context.perform {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Team")).flatMap { team in
                try team.objects(forKey: "members").map { try $0.value(forKey: "name") }
            }
        }
        #expect(Set(names).count == 300)
        #expect(store.statistics.singleLoads == single)
        #expect(
            store.statistics.batchLoads - batches == 1 + 3,
            "one statement for the 30 teams' members, three for the rows of 300 people")
    }

    @Test func aTeamNoFetchReturnedLoadsItsMembersAlone() async throws {
        let teamID = try await teamIDs()[4]
        let context = ManagedObjectContext(coordinator: coordinator)
        context.stalenessInterval = 0
        let (single, batches) = (store.statistics.singleLoads, store.statistics.batchLoads)
        let count = try await context.perform { try context.object(with: teamID).objects(forKey: "members").count }
        #expect(count == 10)
        #expect(store.statistics.batchLoads == batches)
        #expect(store.statistics.singleLoads - single == 2, "the team's row, then its members")
    }

    @Test func aNeighboursUnsavedMembersSurviveAnotherTeamsFaultFiring() async throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let counts = try await context.perform {
            let teams = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Team")))
            try teams[5].setObjects([], forKey: "members")
            return try (teams[0].objects(forKey: "members").count, teams[5].objects(forKey: "members").count)
        }
        #expect(counts == (10, 0))
    }

    @Test func aNeighbourDeletedSinceTheFetchLeavesTheOtherTeamsReadable() async throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let teams = try await context.perform {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Team")).map(\.objectID)
        }
        let other = ManagedObjectContext(coordinator: coordinator)
        try await other.perform {
            try other.delete(other.object(with: teams[3]))
            try other.save()
        }
        let count = try await context.perform {
            try context.object(with: teams[0]).objects(forKey: "members").count
        }
        #expect(count == 10)
    }

    /// The teams' IDs, in the store's order.
    private func teamIDs() async throws -> [ObjectID] {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try await context.perform {
            try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Team"))
        }
    }

    @Test func deletingPeopleOfUnloadedTeamsReadsNothingUntilTheSaveLoadsPeopleAndTeamsTogether() async throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let people = try await context.perform {
            var request = FetchRequest<ManagedObject>(entityName: "Person")
            request.predicate = try FetchPredicate(format: "name IN %@", ["person 3-1", "person 9-4", "person 21-10"])
            return try context.fetchObjectIDs(request)
        }
        #expect(people.count == 3)
        let store = store
        let teams = try await context.perform {
            let (single, batches) = (store.statistics.singleLoads, store.statistics.batchLoads)
            for id in people { try context.delete(context.object(with: id)) }
            #expect(store.statistics.singleLoads == single && store.statistics.batchLoads == batches, "nothing yet")
            try context.save()
            #expect(store.statistics.singleLoads == single, "nothing read one by one")
            #expect(
                store.statistics.batchLoads - batches == 4,
                "the three people's rows, then their tags, then the three teams' rows, then their members")
            return try ["team 3", "team 9", "team 21"].map { name in
                var request = FetchRequest<ManagedObject>(entityName: "Team")
                request.predicate = try FetchPredicate(format: "name == %@", name)
                return try #require(try context.fetchObjectIDs(request).first)
            }
        }
        for team in teams { #expect(try store.relatedObjectIDs(of: team, relationship: "members").count == 9) }
    }
}
