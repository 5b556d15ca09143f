import Foundation
import Strata
import StrataTestSupport

@testable import StrataLMDB

/// A model of players with an indexed score and a plain rating holding the same numbers, in
/// teams, so that a fetch through an index can be compared with one that reads every record.
enum LMDBTestModel {
    static let model = makeModel()

    /// The model, with `fetchIndexes` on Player; indexes change no version hash, so every
    /// such model opens the same files.
    static func makeModel(fetchIndexes: [FetchIndexDescription] = []) -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Player") {
                AttributeDescription("name", .string).indexed()
                AttributeDescription("score", .integer64).indexed()
                AttributeDescription("rating", .integer64)
                RelationshipDescription.toOne("team", destination: "Team", inverse: "players")
            }
            EntityDescription("Captain", parent: "Player") { AttributeDescription("since", .date) }
            EntityDescription("Team") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("players", destination: "Player", inverse: "team", ordered: true)
            }
        }
        model.entities[0].fetchIndexes = fetchIndexes
        try! model.freeze()  // A fixed, valid model: freezing cannot fail.
        return model
    }

    /// Opens (or creates) the store at `url` with `settings`.
    static func open(
        _ url: URL, model: ManagedObjectModel = model, settings: [String: String] = [:], readOnly: Bool = false
    ) throws -> LMDBStore {
        try LMDBStoreFile.open(
            StoreOpenRequest(
                model: model, url: url, options: StoreOptions(isReadOnly: readOnly, settings: settings)))
    }

    /// Saves `count` players (every tenth a captain) with scores and ratings `0..<count` modulo
    /// `modulo`, in saves of at most `batch`, and returns their IDs.
    @discardableResult
    static func insertPlayers(_ count: Int, modulo: Int = 100, batch: Int = 1_000, into store: LMDBStore) throws
        -> [ObjectID]
    {
        var ids: [ObjectID] = []
        for start in stride(from: 0, to: count, by: batch) {
            let serials = start..<min(start + batch, count)
            let names = serials.map { $0 % 10 == 0 ? "Captain" : "Player" }
            let batchIDs = try store.permanentIDs(forEntities: names)
            let changes = zip(serials, batchIDs).map { serial, id in
                StoreChangeSet.ObjectChange(
                    objectID: id,
                    values: [
                        "name": .string("player \(serial)"), "score": .integer64(Int64(serial % modulo)),
                        "rating": .integer64(Int64(serial % modulo)), "team": .null,
                    ].merging(id.entityName == "Captain" ? ["since": .null] : [:]) { first, _ in first },
                    expectedVersion: 0)
            }
            try store.save(StoreChangeSet(inserted: changes))
            ids += batchIDs
        }
        return ids
    }

    /// Saves a new team named Engines whose players are `members` (saved once each before),
    /// and returns its ID.
    static func saveTeam(of members: [ObjectID], into store: LMDBStore) throws -> ObjectID {
        let team = try store.permanentIDs(forEntities: ["Team"])[0]
        let updates = try members.map { id in
            guard var values = try store.snapshot(for: id)?.values else {
                throw StoreError(code: .unknownObject, message: "No player \(id) to put in the team.")
            }
            values["team"] = .objectID(team)
            return StoreChangeSet.ObjectChange(objectID: id, values: values, expectedVersion: 1)
        }
        try store.save(
            StoreChangeSet(
                inserted: [
                    .init(
                        objectID: team, values: ["name": "Engines"], toManyRelationships: ["players": members],
                        expectedVersion: 0)
                ], updated: updates))
        return team
    }

    /// The IDs a fetch returns, sorted by reference.
    static func ids(_ store: LMDBStore, _ format: String, entity: String = "Player") throws -> [ObjectID] {
        let request = StoreFetchRequest(
            entityName: entity, predicate: try FetchPredicate(format: format), resultType: .objectIDs)
        guard case .objectIDs(let ids) = try store.execute(request) else { return [] }
        return ids.sorted { $0.uriString < $1.uriString }
    }
}
