import Foundation
import Strata
import StrataTestSupport

@testable import StrataBinary

/// A folder with a binary store file in it, opened with a model of people in teams.
struct BinaryStoreTestStack {
    /// People in teams: a to-one relationship and its to-many inverse, and values of four types.
    static let model = ManagedObjectModel {
        EntityDescription("Person") {
            AttributeDescription("name", .string)
            AttributeDescription("age", .integer32)
            AttributeDescription("score", .double)
            AttributeDescription("born", .date)
            RelationshipDescription.toOne("team", destination: "Team", inverse: "members")
        }
        EntityDescription("Team") {
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("members", destination: "Person", inverse: "team")
        }
    }

    let directory: TemporaryDirectory
    var model: ManagedObjectModel { Self.model }
    /// The store file.
    var url: URL { directory.file("store.strata") }

    init() throws { directory = try TemporaryDirectory() }

    /// A new coordinator that knows the binary store type.
    func coordinator() throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator(model: model, storeTypes: [.binary])
    }

    /// Opens the store, runs `body` with it, and removes it again.
    func withStore<T>(_ body: (any IncrementalStore) throws -> T) throws -> T {
        let coordinator = try coordinator()
        let store = try coordinator.addStore(type: StoreType.binary.name, at: url)
        defer { try? coordinator.remove(store) }
        return try body(store)
    }

    /// Saves `teams` teams of `membersPerTeam` people each straight through the store SPI, and
    /// returns the IDs of the teams.
    @discardableResult
    func fill(teams: Int, membersPerTeam: Int) throws -> [ObjectID] {
        try withStore { store in
            let teamIDs = try store.permanentIDs(forEntities: Array(repeating: "Team", count: teams))
            var inserted: [StoreChangeSet.ObjectChange] = []
            inserted.reserveCapacity(teams * (membersPerTeam + 1))
            for (teamIndex, team) in teamIDs.enumerated() {
                let members = try store.permanentIDs(forEntities: Array(repeating: "Person", count: membersPerTeam))
                for (index, member) in members.enumerated() {
                    let serial = teamIndex * membersPerTeam + index
                    inserted.append(
                        .init(
                            objectID: member,
                            values: [
                                "name": .string("Person \(serial)"), "age": .integer32(Int32(serial % 100)),
                                "score": .double(Double(serial) / 7),
                                "born": .date(Date(timeIntervalSince1970: Double(serial))),
                                "team": .objectID(team),
                            ], expectedVersion: 0))
                }
                inserted.append(
                    .init(
                        objectID: team, values: ["name": .string("Team \(teamIndex)")],
                        toManyRelationships: ["members": members], expectedVersion: 0))
            }
            try store.save(StoreChangeSet(inserted: inserted))
            return teamIDs
        }
    }

    /// The number of objects of `entity` in `store`.
    static func count(_ entity: String, in store: any IncrementalStore) throws -> Int {
        guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
        else { return -1 }
        return count
    }
}
