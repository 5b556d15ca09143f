import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Saves that touch many rows: versions are checked, rows deleted and unordered to-many members
/// joined a batch of keys per statement, and an update giving every column uses one statement
/// per entity; each gives the same results as one statement per row did.
@Suite struct SQLiteSetBasedSaveTests {
    let directory: TemporaryDirectory
    let store: SQLiteStore
    let tags: [ObjectID]
    let people: [ObjectID]

    /// 300 people (more than two batches of keys), each tagged with one of three tags.
    init() throws {
        directory = try TemporaryDirectory()
        (_, store) = try SQLitePushDownFixture.coordinator(with: directory.file("many.sqlite"))
        people = try store.permanentIDs(forEntities: Array(repeating: "Person", count: 300))
        tags = try store.permanentIDs(forEntities: ["Tag", "Tag", "Tag"])
        var inserted = people.enumerated().map { index, id in
            StoreChangeSet.ObjectChange(
                objectID: id, values: ["name": .string("person \(index)"), "age": .integer32(Int32(index))],
                toManyRelationships: ["tags": [tags[index % 3]]], expectedVersion: 0)
        }
        inserted += tags.enumerated().map { index, id in
            .init(
                objectID: id, values: ["label": .string("tag \(index)")],
                toManyRelationships: ["people": people.enumerated().filter { $0.offset % 3 == index }.map(\.element)],
                expectedVersion: 0)
        }
        try store.save(StoreChangeSet(inserted: inserted))
    }

    @Test func deletingMoreRowsThanOneBatchRemovesExactlyThemAndTheirJoinRows() throws {
        let deleted = people.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        try store.save(StoreChangeSet(deleted: deleted.map { .init(objectID: $0, expectedVersion: 1) }))
        let remaining = Set(people).subtracting(deleted)
        for id in people { #expect((try store.snapshot(for: id) != nil) == remaining.contains(id)) }
        let tagged = try tags.flatMap { try store.relatedObjectIDs(of: $0, relationship: "people") }
        #expect(Set(tagged) == remaining && tagged.count == remaining.count)
    }

    @Test func aStaleVersionAmongManyIsTheOneConflictReported() throws {
        var updates = people.map { id in
            StoreChangeSet.ObjectChange(objectID: id, values: ["age": .integer32(-1)], expectedVersion: 1)
        }
        updates[257].expectedVersion = 7
        let error = try #require(throws: StoreError.self) { try store.save(StoreChangeSet(updated: updates)) }
        #expect(error.code == .conflict)
        #expect(error.conflicts.map(\.objectID) == [people[257]])
        #expect(error.conflicts.first?.storedVersion == 1)
        #expect(try store.snapshot(for: people[0])?.values["age"] == .integer32(0), "nothing was written")
    }

    @Test func anUpdateGivingSomeColumnsLeavesTheOthersAndOneGivingAllReplacesThem() throws {
        let before = try #require(try store.snapshot(for: people[4]))
        try store.save(
            StoreChangeSet(updated: [.init(objectID: people[4], values: ["age": .integer32(99)], expectedVersion: 1)]))
        let partly = try #require(try store.snapshot(for: people[4]))
        #expect(partly.values["age"] == .integer32(99) && partly.values["name"] == before.values["name"])
        #expect(partly.version == 2)
        var every = partly.values
        every["name"] = .string("renamed")
        every["score"] = .double(2.5)
        try store.save(StoreChangeSet(updated: [.init(objectID: people[4], values: every, expectedVersion: 2)]))
        let whole = try #require(try store.snapshot(for: people[4]))
        #expect(whole.values == every && whole.version == 3)
    }

    @Test func anUnorderedToManyOfManyMembersKeptAsAForeignKeyIsWrittenWhole() throws {
        let teams = try store.permanentIDs(forEntities: ["Team"] + Array(repeating: "Team", count: 200))
        let (parent, children) = (teams[0], Array(teams.dropFirst()))
        try store.save(
            StoreChangeSet(
                inserted: [.init(objectID: parent, values: ["name": .string("parent")], expectedVersion: 0)]
                    + children.map { .init(objectID: $0, values: ["name": .string("child")], expectedVersion: 0) }))
        try store.save(
            StoreChangeSet(
                updated: [
                    .init(
                        objectID: parent, values: [:], toManyRelationships: ["children": children], expectedVersion: 1)
                ]))
        #expect(Set(try store.relatedObjectIDs(of: parent, relationship: "children")) == Set(children))
        let kept = Array(children.prefix(150))
        try store.save(
            StoreChangeSet(
                updated: [
                    .init(objectID: parent, values: [:], toManyRelationships: ["children": kept], expectedVersion: 2)
                ]))
        #expect(Set(try store.relatedObjectIDs(of: parent, relationship: "children")) == Set(kept))
        #expect(try store.snapshot(for: children[199])?.values["parent"] == .null)
        #expect(try store.snapshot(for: children[0])?.values["parent"] == .objectID(parent))
    }

    /// A log of the teams whose foreign key to their parent a save writes.
    fileprivate func teamParentLog() throws -> RowChangeLog {
        let team = try store.entitySchema(named: "Team")
        guard
            case .foreignKey(let table, let column, _, _) = try store.toManyStorage(
                of: try #require(team.relationshipsByName["children"]), in: team)
        else { throw StoreError(code: .unsupported, message: "Team.children is not kept as a foreign key.") }
        return try RowChangeLog(
            store: store,
            trigger: "AFTER UPDATE OF \(column) ON \(table.name) BEGIN INSERT INTO log VALUES (new.Z_PK); END")
    }

    @Test func aToManyChangeRewritesOnlyTheRowsThatJoinOrLeaveIt() throws {
        let teams = try store.permanentIDs(forEntities: Array(repeating: "Team", count: 8))
        let (parent, other, children) = (teams[0], teams[1], Array(teams[2...]))
        try store.save(
            StoreChangeSet(
                inserted: [
                    .init(
                        objectID: parent, values: ["name": .string("parent")],
                        toManyRelationships: ["children": Array(children.prefix(5))], expectedVersion: 0),
                    .init(
                        objectID: other, values: ["name": .string("other")],
                        toManyRelationships: ["children": [children[5]]], expectedVersion: 0),
                ] + children.map { .init(objectID: $0, values: ["name": .string("child")], expectedVersion: 0) }))
        let log = try teamParentLog()
        // The change set gives the to-many side only: the child joining from `other` and the
        // one leaving are written through it.
        let kept = [children[1], children[2], children[3], children[4], children[5]]
        try store.save(
            StoreChangeSet(
                updated: [
                    .init(objectID: parent, values: [:], toManyRelationships: ["children": kept], expectedVersion: 1)
                ]))
        #expect(Set(try store.relatedObjectIDs(of: parent, relationship: "children")) == Set(kept))
        #expect(try store.relatedObjectIDs(of: other, relationship: "children").isEmpty)
        #expect(try store.snapshot(for: children[0])?.values["parent"] == .null)
        #expect(try log.keys() == [try store.primaryKey(of: children[0]), try store.primaryKey(of: children[5])])
    }

    @Test func membersMovingBetweenManyOwnersInOneSaveEndWithTheirNewOwnersAndOnlyTheyAreWritten() throws {
        // More owners than one batch of keys, each giving one of its two children to the one before.
        let teams = try store.permanentIDs(forEntities: Array(repeating: "Team", count: 450))
        let (parents, children) = (Array(teams.prefix(150)), Array(teams.dropFirst(150)))
        try store.save(
            StoreChangeSet(
                inserted: parents.enumerated().map { index, id in
                    .init(
                        objectID: id, values: ["name": .string("parent")],
                        toManyRelationships: ["children": [children[2 * index], children[2 * index + 1]]],
                        expectedVersion: 0)
                } + children.map { .init(objectID: $0, values: ["name": .string("child")], expectedVersion: 0) }))
        let log = try teamParentLog()
        let members = parents.indices.map { [children[2 * $0 + 1], children[2 * (($0 + 1) % parents.count)]] }
        try store.save(
            StoreChangeSet(
                updated: parents.enumerated().map { index, id in
                    .init(
                        objectID: id, values: [:], toManyRelationships: ["children": members[index]],
                        expectedVersion: 1)
                }))
        for (index, parent) in parents.enumerated() {
            #expect(Set(try store.relatedObjectIDs(of: parent, relationship: "children")) == Set(members[index]))
        }
        let moved = try stride(from: 0, to: children.count, by: 2).map { try store.primaryKey(of: children[$0]) }
        let written = try log.keys()
        #expect(written.count == 2 * moved.count, "each moved child leaves one owner and joins another")
        #expect(Set(written) == Set(moved))
    }

    @Test func newMembersWhoseRowsAlreadyLeadToTheirNewOwnerAreNotWrittenAgain() throws {
        let log = try teamParentLog()
        let teams = try store.permanentIDs(forEntities: Array(repeating: "Team", count: 5))
        let (parent, children) = (teams[0], Array(teams.dropFirst()))
        // The change set gives both sides for three children; the fourth's row leads nowhere.
        try store.save(
            StoreChangeSet(
                inserted: [
                    .init(
                        objectID: parent, values: ["name": .string("parent")],
                        toManyRelationships: ["children": children], expectedVersion: 0)
                ]
                    + children.enumerated().map { index, id in
                        .init(
                            objectID: id,
                            values: ["name": .string("child"), "parent": index == 3 ? .null : .objectID(parent)],
                            expectedVersion: 0)
                    }))
        #expect(Set(try store.relatedObjectIDs(of: parent, relationship: "children")) == Set(children))
        #expect(try log.keys() == [try store.primaryKey(of: children[3])])
    }

    @Test func aManyToManyChangeAddsAndRemovesOnlyTheJoinRowsThatChange() throws {
        let person = try store.entitySchema(named: "Person")
        guard
            case .joinTable(let joinTable, _, _, _, _) = try store.toManyStorage(
                of: try #require(person.relationshipsByName["tags"]), in: person)
        else { throw StoreError(code: .unsupported, message: "Person.tags is not kept in a join table.") }
        let log = try RowChangeLog(
            store: store,
            trigger: """
                AFTER INSERT ON \(joinTable) BEGIN INSERT INTO log VALUES (1); END;
                CREATE TRIGGER logDelete AFTER DELETE ON \(joinTable) BEGIN INSERT INTO log VALUES (-1); END
                """)
        let snapshot = try #require(try store.snapshot(for: people[0]))
        try store.save(
            StoreChangeSet(
                updated: [
                    .init(
                        objectID: people[0], values: snapshot.values,
                        toManyRelationships: ["tags": [tags[0], tags[1]]], expectedVersion: 1)
                ]))
        #expect(Set(try store.relatedObjectIDs(of: people[0], relationship: "tags")) == [tags[0], tags[1]])
        #expect(try log.keys() == [1], "one join row added, none deleted and added again")
        try store.save(
            StoreChangeSet(
                updated: [
                    .init(
                        objectID: people[0], values: snapshot.values, toManyRelationships: ["tags": [tags[1]]],
                        expectedVersion: 2)
                ]))
        #expect(try store.relatedObjectIDs(of: people[0], relationship: "tags") == [tags[1]])
        #expect(try log.keys() == [-1, 1])
    }
}

/// A log table in a store's file that a trigger fills, read through a connection of its own.
private struct RowChangeLog {
    let connection: SQLiteConnection

    /// Creates the table `log` and the trigger `log` with the body `trigger`.
    init(store: SQLiteStore, trigger: String) throws {
        connection = try SQLiteConnection(path: try #require(store.url).path, mode: .readWrite)
        try connection.execute(script: "CREATE TABLE log (key INTEGER); CREATE TRIGGER log \(trigger);")
    }

    /// The keys logged so far, sorted.
    func keys() throws -> [Int64] {
        try connection.cachedStatement("SELECT key FROM log ORDER BY key").rows { row in
            if case .integer(let key) = row.value(at: 0) { return key }
            return 0
        }
    }
}
