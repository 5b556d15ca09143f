import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// Saves that touch many rows: rows are inserted and updated through libpq's pipeline mode,
/// deletions are one statement per table, and to-many members kept as a foreign key are written
/// for every owner of a save at once; each gives what one statement per row and owner gave.
@Suite struct PostgresSetBasedSaveTests {
    static let model = ManagedObjectModel {
        EntityDescription("Team") {
            AttributeDescription("name", .string)
            RelationshipDescription.toOne("parent", destination: "Team", inverse: "children")
            RelationshipDescription.toMany("children", destination: "Team", inverse: "parent")
            RelationshipDescription.toMany("roster", destination: "Player", inverse: "team", ordered: true)
        }
        EntityDescription("Player") {
            AttributeDescription("name", .string)
            RelationshipDescription.toOne("team", destination: "Team", inverse: "roster")
        }
    }

    let store: any IncrementalStore
    let coordinator: PersistentStoreCoordinator

    init() throws {
        let server = try PostgresTestServer.shared.get()
        coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.postgres])
        store = try coordinator.addStore(.postgres(at: server.storeURL(schema: PostgresTestServer.uniqueSchema())))
    }

    func named(_ ids: [ObjectID], _ name: String) -> [StoreChangeSet.ObjectChange] {
        ids.map { .init(objectID: $0, values: ["name": .string(name)], expectedVersion: 0) }
    }

    @Test func membersMovingBetweenManyOwnersInOneSaveEndWithTheirNewOwners() throws {
        let teams = try store.permanentIDs(forEntities: Array(repeating: "Team", count: 450))
        let (parents, children) = (Array(teams.prefix(150)), Array(teams.dropFirst(150)))
        var inserted = named(children, "child")
        for (index, parent) in parents.enumerated() {
            inserted.append(
                .init(
                    objectID: parent, values: ["name": .string("parent")],
                    toManyRelationships: ["children": [children[2 * index], children[2 * index + 1]]],
                    expectedVersion: 0))
        }
        try store.save(StoreChangeSet(inserted: inserted))
        // Each parent gives its first child to the parent before it; the last parent keeps
        // one child only, and child 1 is listed by two parents: the later one keeps it.
        var members = parents.indices.map { [children[2 * $0 + 1], children[2 * (($0 + 1) % parents.count)]] }
        members[149] = [children[299]]
        members[148].append(children[1])
        try store.save(
            StoreChangeSet(
                updated: parents.enumerated().map { index, id in
                    .init(
                        objectID: id, values: ["name": .string("parent")],
                        toManyRelationships: ["children": members[index]], expectedVersion: 1)
                }))
        for (index, parent) in parents.enumerated() where index != 0 {
            #expect(Set(try store.relatedObjectIDs(of: parent, relationship: "children")) == Set(members[index]))
        }
        #expect(try store.relatedObjectIDs(of: parents[0], relationship: "children") == [children[2]])
        #expect(try store.snapshot(for: children[0])?.values["parent"] == .null, "no parent lists it any more")
        #expect(try store.snapshot(for: children[1])?.values["parent"] == .objectID(parents[148]))
    }

    @Test func anOrderedToManyKeepsEachOwnersOrderAcrossOwners() throws {
        let teams = try store.permanentIDs(forEntities: ["Team", "Team"])
        let players = try store.permanentIDs(forEntities: Array(repeating: "Player", count: 6))
        try store.save(
            StoreChangeSet(
                inserted: named(players, "player") + [
                    .init(
                        objectID: teams[0], values: ["name": .string("a")],
                        toManyRelationships: ["roster": [players[2], players[0], players[1]]], expectedVersion: 0),
                    .init(
                        objectID: teams[1], values: ["name": .string("b")],
                        toManyRelationships: ["roster": [players[5], players[4], players[3]]], expectedVersion: 0),
                ]))
        try store.save(
            StoreChangeSet(updated: [
                .init(
                    objectID: teams[0], values: ["name": .string("a")],
                    toManyRelationships: ["roster": [players[3], players[2]]], expectedVersion: 1),
                .init(
                    objectID: teams[1], values: ["name": .string("b")],
                    toManyRelationships: ["roster": [players[0], players[5]]], expectedVersion: 1),
            ]))
        #expect(try store.relatedObjectIDs(of: teams[0], relationship: "roster") == [players[3], players[2]])
        #expect(try store.relatedObjectIDs(of: teams[1], relationship: "roster") == [players[0], players[5]])
        #expect(try store.snapshot(for: players[1])?.values["team"] == .null)
        #expect(try store.snapshot(for: players[4])?.values["team"] == .null)
    }

    @Test func deletingManyObjectsRemovesExactlyThemAndTheirMemberships() throws {
        let teams = try store.permanentIDs(forEntities: Array(repeating: "Team", count: 301))
        let (parent, children) = (teams[0], Array(teams.dropFirst()))
        try store.save(
            StoreChangeSet(
                inserted: named(children, "child") + [
                    .init(
                        objectID: parent, values: ["name": .string("parent")],
                        toManyRelationships: ["children": children], expectedVersion: 0)
                ]))
        let deleted = children.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        try store.save(StoreChangeSet(deleted: deleted.map { .init(objectID: $0, expectedVersion: 1) }))
        let remaining = children.filter { !deleted.contains($0) }
        #expect(Set(try store.relatedObjectIDs(of: parent, relationship: "children")) == Set(remaining))
        for id in children { #expect((try store.snapshot(for: id) != nil) == remaining.contains(id)) }
    }

    @Test func rowsInsertedAndUpdatedAcrossManyPipelinesAreAllWritten() throws {
        let count = 2 * PostgresConnection.pipelineDepth + 50
        let teams = try store.permanentIDs(forEntities: Array(repeating: "Team", count: count))
        try store.save(StoreChangeSet(inserted: named(teams, "new")))
        try store.save(
            StoreChangeSet(
                updated: teams.enumerated().map { index, id in
                    .init(objectID: id, values: ["name": .string("team \(index)")], expectedVersion: 1)
                }))
        for (index, id) in teams.enumerated() {
            let snapshot = try #require(try store.snapshot(for: id))
            #expect(snapshot.values["name"] == .string("team \(index)") && snapshot.version == 2)
        }
    }

    @Test func aRowFailingInTheMiddleOfAPipelineWritesNothingAndTheStoreSavesAgain() throws {
        let first = try store.permanentIDs(forEntities: ["Team"])
        try store.save(StoreChangeSet(inserted: named(first, "first")))
        var teams = try store.permanentIDs(forEntities: Array(repeating: "Team", count: 300))
        // A key already saved: the server refuses that row, and the pipeline's later rows.
        teams[250] = first[0]
        #expect(throws: (any Error).self) { try store.save(StoreChangeSet(inserted: named(teams, "refused"))) }
        let request = StoreFetchRequest(entityName: "Team", resultType: .count)
        #expect(try store.execute(request) == .count(1), "nothing of the failed save was kept")
        teams[250] = try store.permanentIDs(forEntities: ["Team"])[0]
        try store.save(StoreChangeSet(inserted: named(teams, "kept")))
        #expect(try store.execute(request) == .count(301))
    }

    @Test func rowsGivenTheSameChangeAreUpdatedTogetherAndEachVersionGrowsByOne() throws {
        let teams = try store.permanentIDs(forEntities: Array(repeating: "Team", count: 300))
        let (parent, children) = (teams[0], Array(teams.dropFirst()))
        try store.save(
            StoreChangeSet(
                inserted: children.enumerated().map { index, id in
                    .init(
                        objectID: id, values: ["name": .string("child \(index)"), "parent": .objectID(parent)],
                        expectedVersion: 0)
                } + [.init(objectID: parent, values: ["name": .string("parent")], expectedVersion: 0)]))
        // As a context sends them after deleting the parent: each child's parent emptied, and
        // nothing else changed; the odd ones were saved once more before.
        let odd = children.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        try store.save(
            StoreChangeSet(
                updated: odd.map { id in
                    .init(
                        objectID: id, values: ["name": .string("renamed"), "parent": .objectID(parent)],
                        expectedVersion: 1, changedKeys: ["name"])
                }))
        try store.save(
            StoreChangeSet(
                updated: children.map { id in
                    let isOdd = odd.contains(id)
                    return .init(
                        objectID: id, values: ["name": .string(isOdd ? "renamed" : "kept"), "parent": .null],
                        expectedVersion: isOdd ? 2 : 1, changedKeys: ["parent"])
                }, deleted: [.init(objectID: parent, expectedVersion: 1)]))
        for (index, id) in children.enumerated() {
            let snapshot = try #require(try store.snapshot(for: id))
            let isOdd = index % 2 == 1
            #expect(snapshot.version == (isOdd ? 3 : 2))
            #expect(snapshot.values["parent"] == .null)
            #expect(snapshot.values["name"] == .string(isOdd ? "renamed" : "child \(index)"), "only changed keys")
        }
    }

    @Test func theMembersOfManyOwnersReadTogetherAreEachOwnersInOrder() throws {
        let teams = try store.permanentIDs(forEntities: Array(repeating: "Team", count: 3))
        let players = try store.permanentIDs(forEntities: Array(repeating: "Player", count: 5))
        let rosters = [[players[3], players[0], players[4]], [], [players[2], players[1]]]
        try store.save(
            StoreChangeSet(
                inserted: named(players, "player")
                    + teams.enumerated().map { index, id in
                        .init(
                            objectID: id, values: ["name": .string("team \(index)")],
                            toManyRelationships: ["roster": rosters[index]], expectedVersion: 0)
                    }))
        let together = try store.relatedObjectIDs(ofEach: teams, relationship: "roster")
        for (index, team) in teams.enumerated() {
            #expect(together[team] == rosters[index])
            #expect(try store.relatedObjectIDs(of: team, relationship: "roster") == rosters[index])
        }
    }
}
