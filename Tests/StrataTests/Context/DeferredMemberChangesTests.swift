import Foundation
import Testing

@testable import Strata

/// Changing the inverse side of a to-many relationship whose members are not loaded (deleting a
/// child, moving it to another parent) reads nothing: the change waits for the members, is
/// made when they load, and the save loads the rest in batches. What the application sees is
/// what changing the loaded members would have given.
@Suite struct DeferredMemberChangesTests {
    /// Teams with unordered players, lists with ordered items, and albums whose tracks go with
    /// them, saved in a counted in-memory store; `context` is a fresh context that has loaded
    /// nothing.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let store: ObservedStore
        let context: ManagedObjectContext
        let teams: [ObjectID]
        let players: [ObjectID]
        let list: ObjectID
        let items: [ObjectID]
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
                EntityDescription("List") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("items", destination: "Item", inverse: "list", ordered: true)
                }
                EntityDescription("Item") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("list", destination: "List", inverse: "items")
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
            (teams, players, list, items, albums, tracks) = try setup.performAndWait {
                func insert(_ entity: String, _ name: String) throws -> ManagedObject {
                    let object = try setup.insertNewObject(forEntityName: entity)
                    try object.setValue(.string(name), forKey: "name")
                    return object
                }
                let teams = try ["red", "blue"].map { try insert("Team", $0) }
                var players: [ManagedObject] = []
                for (team, names) in zip(teams, [["ann", "bob", "cid"], ["dan", "eve"]]) {
                    for name in names {
                        let player = try insert("Player", name)
                        try player.setObject(team, forKey: "team")
                        players.append(player)
                    }
                }
                let list = try insert("List", "chores")
                let items = try ["a", "b", "c"].map { try insert("Item", $0) }
                try list.setObjects(items, forKey: "items")
                let albums = try ["one", "two"].map { try insert("Album", $0) }
                var tracks: [ManagedObject] = []
                for album in albums {
                    for side in ["a", "b"] {
                        let track = try insert("Track", side)
                        try track.setObject(album, forKey: "album")
                        tracks.append(track)
                    }
                }
                try setup.save()
                return (
                    teams.map(\.objectID), players.map(\.objectID), list.objectID, items.map(\.objectID),
                    albums.map(\.objectID), tracks.map(\.objectID)
                )
            }
            context = ManagedObjectContext(coordinator: coordinator)
        }

        /// The names of the members of `key` of the object `id`, as `context` sees them.
        func names(_ id: ObjectID, _ key: String, in context: ManagedObjectContext? = nil) throws -> [String] {
            let context = context ?? self.context
            return try context.performAndWait {
                try context.object(with: id).objects(forKey: key).map {
                    try $0.value(forKey: "name").get(String.self) ?? ""
                }
            }
        }

        /// The names as a context that has loaded nothing reads them from the store.
        func savedNames(_ id: ObjectID, _ key: String) throws -> [String] {
            try names(id, key, in: ManagedObjectContext(coordinator: coordinator))
        }

        /// The value of `key` of `id` as a context that has loaded nothing reads it from the store.
        func savedValue(_ id: ObjectID, _ key: String) throws -> AttributeValue {
            let fresh = ManagedObjectContext(coordinator: coordinator)
            return try fresh.performAndWait { try fresh.object(with: id).value(forKey: key) }
        }

        /// What the store has counted so far.
        var reads: ObservedStore.Reads { store.reads.withLock { $0 } }

        /// Whether a context that has loaded nothing finds `id` in the store.
        func isSaved(_ id: ObjectID) -> Bool {
            let fresh = ManagedObjectContext(coordinator: coordinator)
            return fresh.performAndWait { (try? fresh.existingObject(with: id)) != nil }
        }
    }

    @Test func deletingAChildReadsNeitherItsParentNorTheParentsMembers() throws {
        let stack = try Stack()
        let team = try stack.context.performAndWait {
            let player = stack.context.object(with: stack.players[1])
            try player.willAccessValues()
            let before = stack.store.reads.withLock { $0 }
            try stack.context.delete(player)
            #expect(stack.store.reads.withLock { $0 } == before, "no row and no members read")
            let team = stack.context.object(with: stack.teams[0])
            #expect(team.isFault && team.isUpdated && team.hasChanges)
            return team
        }
        #expect(try stack.names(stack.teams[0], "players").sorted() == ["ann", "cid"])
        try stack.context.performAndWait {
            #expect(team.isUpdated)
            try stack.context.save()
        }
        #expect(try stack.savedNames(stack.teams[0], "players").sorted() == ["ann", "cid"])
    }

    @Test func aSaveLoadsTheWaitingParentsAndTheirMembersInBatches() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let before = stack.store.reads.withLock { $0 }
            for id in [stack.players[0], stack.players[3]] { try stack.context.delete(stack.context.object(with: id)) }
            #expect(stack.store.reads.withLock { $0 } == before, "deleting the two players reads nothing yet")
            try stack.context.save()
            let after = stack.store.reads.withLock { $0 }
            #expect(after.rows == before.rows && after.members == before.members, "nothing read one by one")
            #expect(after.rowBatches == before.rowBatches + 2, "both players' rows together, then both teams' rows")
            #expect(after.memberBatches == before.memberBatches + 1, "both teams' players together")
        }
        #expect(try stack.savedNames(stack.teams[0], "players").sorted() == ["bob", "cid"])
        #expect(try stack.savedNames(stack.teams[1], "players") == ["eve"])
    }

    @Test func movingAChildBetweenUnloadedParentsMovesItInBoth() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let player = stack.context.object(with: stack.players[0])
            try player.setObject(stack.context.object(with: stack.teams[1]), forKey: "team")
            #expect(stack.context.object(with: stack.teams[0]).isFault)
        }
        #expect(try stack.names(stack.teams[1], "players").sorted() == ["ann", "dan", "eve"])
        try stack.context.performAndWait { try stack.context.save() }
        #expect(try stack.savedNames(stack.teams[0], "players").sorted() == ["bob", "cid"])
        #expect(try stack.savedNames(stack.teams[1], "players").sorted() == ["ann", "dan", "eve"])
    }

    @Test func aNewChildJoinsAnUnloadedParentWithItsPermanentID() throws {
        let stack = try Stack()
        let newID = try stack.context.performAndWait {
            let player = try stack.context.insertNewObject(forEntityName: "Player")
            try player.setValue(.string("fay"), forKey: "name")
            try player.setObject(stack.context.object(with: stack.teams[1]), forKey: "team")
            try stack.context.save()
            return player.objectID
        }
        #expect(!newID.isTemporary)
        let stored = try stack.store.relatedObjectIDs(of: stack.teams[1], relationship: "players")
        #expect(stored.contains(newID))
        #expect(try stack.savedNames(stack.teams[1], "players").sorted() == ["dan", "eve", "fay"])
    }

    @Test func anOrderedRelationshipGetsTheOrderTheLoadedMembersWouldHave() throws {
        let stack = try Stack()
        func moveBOutAndBack(loadingFirst: Bool, in context: ManagedObjectContext) throws -> [String] {
            try context.performAndWait {
                if loadingFirst { _ = try context.object(with: stack.list).objects(forKey: "items") }
                let item = context.object(with: stack.items[1])
                try item.setObject(nil, forKey: "list")
                try item.setObject(context.object(with: stack.list), forKey: "list")
                return try context.object(with: stack.list).objects(forKey: "items").map {
                    try $0.value(forKey: "name").get(String.self) ?? ""
                }
            }
        }
        let loaded = try moveBOutAndBack(loadingFirst: true, in: ManagedObjectContext(coordinator: stack.coordinator))
        #expect(loaded == ["a", "c", "b"])
        #expect(try moveBOutAndBack(loadingFirst: false, in: stack.context) == loaded)
        try stack.context.performAndWait { try stack.context.save() }
        #expect(try stack.savedNames(stack.list, "items") == ["a", "c", "b"])
    }

    @Test func rollbackDropsTheWaitingChanges() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            try stack.context.delete(stack.context.object(with: stack.players[0]))
            stack.context.rollback()
            #expect(!stack.context.object(with: stack.teams[0]).hasChanges)
        }
        #expect(try stack.names(stack.teams[0], "players").sorted() == ["ann", "bob", "cid"])
    }

    @Test func refreshingAParentKeepsTheWaitingChangesOnlyWhenMergingChanges() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            try stack.context.object(with: stack.players[0]).setObject(nil, forKey: "team")
            try stack.context.object(with: stack.players[3]).setObject(nil, forKey: "team")
            try stack.context.refresh(stack.context.object(with: stack.teams[0]), mergeChanges: true)
            try stack.context.refresh(stack.context.object(with: stack.teams[1]), mergeChanges: false)
        }
        #expect(try stack.names(stack.teams[0], "players").sorted() == ["bob", "cid"])
        #expect(try stack.names(stack.teams[1], "players").sorted() == ["dan", "eve"])
    }

    @Test func withAnUndoManagerTheMembersLoadSoThatUndoRestoresThem() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            stack.context.undoManager = ContextUndoManager()
            try stack.context.delete(stack.context.object(with: stack.players[0]))
            #expect(!stack.context.object(with: stack.teams[0]).isFault)
            stack.context.undo()
        }
        #expect(try stack.names(stack.teams[0], "players").sorted() == ["ann", "bob", "cid"])
    }

    @Test func aChildContextsWaitingChangesReachItsParentAndTheStore() throws {
        let stack = try Stack()
        let child = ManagedObjectContext(parent: stack.context, name: "child")
        try child.performAndWait {
            try child.delete(child.object(with: stack.players[0]))
            try child.object(with: stack.players[4]).setObject(child.object(with: stack.teams[0]), forKey: "team")
            #expect(child.object(with: stack.teams[0]).isFault)
            try child.save()
        }
        #expect(try stack.names(stack.teams[0], "players").sorted() == ["bob", "cid", "eve"])
        try stack.context.performAndWait { try stack.context.save() }
        #expect(try stack.savedNames(stack.teams[0], "players").sorted() == ["bob", "cid", "eve"])
        #expect(try stack.savedNames(stack.teams[1], "players") == ["dan"])
    }
}
