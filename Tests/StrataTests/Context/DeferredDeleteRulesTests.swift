import Foundation
import Testing

@testable import Strata

/// Deleting saved objects whose values or members are not loaded reads nothing: their delete
/// rules wait, and apply together (rows, members and the objects they change read in batches)
/// before anything can see the result. What the application sees is what applying each rule at
/// once would have given.
@Suite struct DeferredDeleteRulesTests {
    /// Teams whose players a deletion orphans, and albums whose tracks go with them, saved in a
    /// counted in-memory store; `context` has loaded nothing.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let store: ObservedStore
        let context: ManagedObjectContext
        let teams: [ObjectID]
        let players: [ObjectID]
        let albums: [ObjectID]
        let tracks: [ObjectID]

        init() throws {
            let model = ManagedObjectModel {
                EntityDescription("Team") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("players", destination: "Player", inverse: "team")
                }
                EntityDescription("Player") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("team", destination: "Team", inverse: "players")
                }
                EntityDescription("Album") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany(
                        "tracks", destination: "Track", inverse: "album", deleteRule: .cascade)
                }
                EntityDescription("Track") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("album", destination: "Album", inverse: "tracks")
                }
            }
            try model.freeze()
            coordinator = try PersistentStoreCoordinator(model: model)
            store = ObservedStore(base: try InMemoryStore.open(model: model, configuration: nil))
            try coordinator.add(store)
            let setup = ManagedObjectContext(coordinator: coordinator)
            (teams, players, albums, tracks) = try setup.performAndWait {
                func insert(_ entity: String, _ name: String) throws -> ManagedObject {
                    let object = try setup.insertNewObject(forEntityName: entity)
                    try object.setValue(.string(name), forKey: "name")
                    return object
                }
                func fill(_ owners: [ManagedObject], _ entity: String, key: String, count: Int) throws
                    -> [ManagedObject]
                {
                    var members: [ManagedObject] = []
                    for owner in owners {
                        for index in 0..<count {
                            let member = try insert(entity, "\(entity) \(members.count) \(index)")
                            try member.setObject(owner, forKey: key)
                            members.append(member)
                        }
                    }
                    return members
                }
                let teams = try (0..<4).map { try insert("Team", "team \($0)") }
                let players = try fill(teams, "Player", key: "team", count: 3)
                let albums = try (0..<3).map { try insert("Album", "album \($0)") }
                let tracks = try fill(albums, "Track", key: "album", count: 2)
                try setup.save()
                return (
                    teams.map(\.objectID), players.map(\.objectID), albums.map(\.objectID), tracks.map(\.objectID)
                )
            }
            context = ManagedObjectContext(coordinator: coordinator)
        }

        var reads: ObservedStore.Reads { store.reads.withLock { $0 } }

        /// Whether a context that has loaded nothing finds `id` in the store.
        func isSaved(_ id: ObjectID) -> Bool {
            let fresh = ManagedObjectContext(coordinator: coordinator)
            return fresh.performAndWait { (try? fresh.existingObject(with: id)) != nil }
        }
    }

    @Test func deletingManyUnloadedObjectsReadsNothingUntilOneIsLookedAtThenReadsInBatches() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let before = stack.reads
            for id in [stack.teams[0], stack.teams[2], stack.players[4], stack.players[5]] {
                try stack.context.delete(stack.context.object(with: id))
            }
            #expect(stack.reads == before, "no row and no members read")
            let orphan = stack.context.object(with: stack.players[0])
            #expect(try orphan.value(forKey: "team") == .null, "the rule nullified the deleted team's players")
            let after = stack.reads
            #expect(after.rows == before.rows && after.members == before.members, "nothing read one by one")
            #expect(after.rowBatches == before.rowBatches + 2, "the four deleted rows, then the orphaned players")
            #expect(after.memberBatches == before.memberBatches + 1, "both teams' players together")
            #expect(try stack.context.object(with: stack.teams[1]).objects(forKey: "players").count == 1)
            try stack.context.save()
        }
        for id in [stack.teams[0], stack.teams[2], stack.players[4], stack.players[5]] {
            #expect(!stack.isSaved(id))
        }
        let fresh = ManagedObjectContext(coordinator: stack.coordinator)
        try fresh.performAndWait { () throws -> Void in
            for id in stack.players[0..<3] + stack.players[6..<9] {
                #expect(try fresh.object(with: id).value(forKey: "team") == .null)
            }
            #expect(
                try fresh.object(with: stack.teams[1]).objects(forKey: "players").map(\.objectID) == [stack.players[3]])
        }
    }

    @Test func aCascadeReachesUnloadedDestinationsBeforeTheContextIsAsked() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            try stack.context.delete(stack.context.object(with: stack.albums[1]))
            let deleted = Set(stack.context.deletedObjects.map(\.objectID))
            #expect(deleted == [stack.albums[1], stack.tracks[2], stack.tracks[3]])
            #expect(stack.context.object(with: stack.tracks[2]).isDeleted)
            #expect(!stack.context.object(with: stack.tracks[0]).isDeleted)
            try stack.context.save()
        }
        for id in [stack.albums[1], stack.tracks[2], stack.tracks[3]] { #expect(!stack.isSaved(id)) }
        for id in [stack.albums[0], stack.tracks[0], stack.tracks[5]] { #expect(stack.isSaved(id)) }
    }

    @Test func theEndOfAPerformBlockAppliesTheRules() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            try stack.context.delete(stack.context.object(with: stack.albums[0]))
        }
        let applied = stack.context.performAndWait {
            stack.context.deletesAwaitingRules.isEmpty && stack.context.pendingDeletions.count == 3
        }
        #expect(applied)
    }

    @Test func aFailingReadLeavesTheRulesWaitingAndTheSaveThrowsIt() throws {
        let stack = try Stack()
        let savesBefore = stack.reads.saves
        try stack.context.performAndWait {
            stack.store.failsReads.withLock { $0 = true }
            try stack.context.delete(stack.context.object(with: stack.teams[3]))
            #expect(stack.context.hasChanges)
            #expect(throws: StoreError.self) { try stack.context.save() }
            #expect(stack.context.deletesAwaitingRules.map(\.objectID) == [stack.teams[3]])
        }
        stack.store.failsReads.withLock { $0 = false }
        #expect(stack.reads.saves == savesBefore, "nothing written")
        #expect(stack.isSaved(stack.teams[3]))
        try stack.context.performAndWait { try stack.context.save() }
        #expect(!stack.isSaved(stack.teams[3]))
        let fresh = ManagedObjectContext(coordinator: stack.coordinator)
        try fresh.performAndWait { () throws -> Void in
            for id in stack.players[9..<12] { #expect(try fresh.object(with: id).value(forKey: "team") == .null) }
        }
    }

    @Test func aContextWithAnUndoManagerAppliesTheRulesAtOnce() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            stack.context.undoManager = ContextUndoManager()
            let before = stack.reads
            try stack.context.delete(stack.context.object(with: stack.teams[0]))
            #expect(stack.reads != before, "the team's row and players were read as it was deleted")
            #expect(stack.context.deletesAwaitingRules.isEmpty)
        }
    }
}
