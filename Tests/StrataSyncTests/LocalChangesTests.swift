import Foundation
import Strata
import StrataConformance
import StrataSync
import Testing

/// What a replica's store shows, turned into operations against the merged state: only what
/// differs, keys the replica does not know left alone, and the merged state then showing what
/// the store shows.
@Suite struct LocalChangesTests {
    let replica = ReplicaID.random()
    let book = GlobalID.random()

    private func stamp(_ milliseconds: Int64) -> SyncTimestamp {
        SyncTimestamp(milliseconds: milliseconds, counter: 0, replica: replica)
    }

    private func apply(_ operations: [SyncOperation], to state: inout MergeState) throws {
        for operation in operations { try state.apply(operation) }
    }

    @Test func aNewObjectBecomesItsValuesAndMembers() throws {
        var state = MergeState()
        let tags: Set<GlobalID> = [.random(), .random()]
        let shown = ResolvedObject(
            entity: "Book", values: ["title": .attribute("Earthsea"), "author": .reference(nil)],
            relationships: ["tags": tags])
        let operations = try state.operations(bringing: book, to: shown, at: stamp(1))
        #expect(operations.count == 5)
        #expect(operations.first?.change == .insert)
        #expect(operations.allSatisfy { $0.stamp == stamp(1) && $0.entity == "Book" })
        try apply(operations, to: &state)
        #expect(state.resolved(book) == shown)
        #expect(try state.operations(bringing: book, to: shown, at: stamp(2)) == [])
    }

    @Test func onlyWhatDiffersBecomesAnOperation() throws {
        var state = MergeState()
        let kept = GlobalID.random()
        let dropped = GlobalID.random()
        let first = ResolvedObject(
            entity: "Book", values: ["title": .attribute("A"), "pages": .attribute(.integer64(100))],
            relationships: ["tags": [kept, dropped]])
        try apply(try state.operations(bringing: book, to: first, at: stamp(1)), to: &state)
        let added = GlobalID.random()
        let second = ResolvedObject(
            entity: "Book", values: ["title": .attribute("A"), "pages": .attribute(.integer64(120))],
            relationships: ["tags": [kept, added]])
        let operations = try state.operations(bringing: book, to: second, at: stamp(2))
        #expect(
            operations.map(\.change) == [
                .set(key: "pages", value: .attribute(.integer64(120))), .add(key: "tags", member: added),
                .remove(key: "tags", member: dropped, observed: [stamp(1)]),
            ])
        try apply(operations, to: &state)
        #expect(state.resolved(book) == second)
    }

    @Test func keysTheReplicaDoesNotShowAreLeftAlone() throws {
        var state = MergeState()
        let newer = ResolvedObject(
            entity: "Book", values: ["title": .attribute("A"), "subtitle": .attribute("from version 2")])
        try apply(try state.operations(bringing: book, to: newer, at: stamp(1)), to: &state)
        // A replica on the previous model version knows no subtitle.
        let older = ResolvedObject(entity: "Book", values: ["title": .attribute("B")])
        let operations = try state.operations(bringing: book, to: older, at: stamp(2))
        #expect(operations.map(\.change) == [.set(key: "title", value: .attribute("B"))])
        try apply(operations, to: &state)
        #expect(state.resolved(book)?.values["subtitle"] == .attribute("from version 2"))
    }

    @Test func anObjectTheStoreNoLongerHasIsDeletedOnce() throws {
        var state = MergeState()
        #expect(try state.operations(bringing: book, to: nil, at: stamp(1)) == [])
        try apply(
            try state.operations(bringing: book, to: ResolvedObject(entity: "Book", values: [:]), at: stamp(1)),
            to: &state)
        let deletion = try state.operations(bringing: book, to: nil, at: stamp(2))
        #expect(deletion.map(\.change) == [.delete])
        try apply(deletion, to: &state)
        #expect(try state.operations(bringing: book, to: nil, at: stamp(3)) == [])
    }

    @Test func aDeletedObjectTheStoreStillShowsComesBackOnlyWhereUpdatesWin() throws {
        let shown = ResolvedObject(entity: "Book", values: ["title": .attribute("A")])
        for (rule, expected) in [(MergeRules.DeleteRule.deleteWins, 0), (.updateWins, 1)] {
            var state = MergeState(rules: MergeRules(defaultDeleteRule: rule))
            try apply(try state.operations(bringing: book, to: shown, at: stamp(1)), to: &state)
            try state.apply(SyncOperation(object: book, entity: "Book", stamp: stamp(2), change: .delete))
            let edited = ResolvedObject(entity: "Book", values: ["title": .attribute("B")])
            let operations = try state.operations(bringing: book, to: edited, at: stamp(3))
            #expect(operations.count == expected)
            try apply(operations, to: &state)
            #expect(state.isAlive(book) == (rule == .updateWins))
        }
    }

    @Test func referencesAndMembersOfDeletedObjectsMakeNoOperation() throws {
        var state = MergeState()
        let author = GlobalID.random()
        let tag = GlobalID.random()
        try apply(
            try state.operations(
                bringing: author, to: ResolvedObject(entity: "Author", values: ["name": .attribute("L")]),
                at: stamp(1)), to: &state)
        try apply(
            try state.operations(
                bringing: tag, to: ResolvedObject(entity: "Tag", values: ["name": .attribute("t")]), at: stamp(1)),
            to: &state)
        let shown = ResolvedObject(
            entity: "Book", values: ["author": .reference(author)], relationships: ["tags": [tag]])
        try apply(try state.operations(bringing: book, to: shown, at: stamp(1)), to: &state)
        for deleted in [author, tag] {
            let entity = deleted == author ? "Author" : "Tag"
            try state.apply(SyncOperation(object: deleted, entity: entity, stamp: stamp(2), change: .delete))
        }
        // The store has applied the deletions: no author, no tag.
        let after = ResolvedObject(entity: "Book", values: ["author": .reference(nil)], relationships: ["tags": []])
        #expect(try state.operations(bringing: book, to: after, at: stamp(3)) == [])
    }

    @Test func deletingAnObjectTheOthersReferToMakesOneOperation() throws {
        var state = MergeState()
        let author = GlobalID.random()
        try apply(
            try state.operations(
                bringing: [
                    author: ResolvedObject(entity: "Author", values: ["name": .attribute("L")]),
                    book: ResolvedObject(
                        entity: "Book", values: ["author": .reference(author)], relationships: ["tags": [author]]),
                ], at: stamp(1)), to: &state)
        // The store deleted the author, which emptied the book's reference and tags.
        let after: [GlobalID: ResolvedObject?] = [
            author: nil,
            book: ResolvedObject(entity: "Book", values: ["author": .reference(nil)], relationships: ["tags": []]),
        ]
        let operations = try state.operations(bringing: after, at: stamp(2))
        #expect(operations.map(\.object) == [author])
        #expect(operations.map(\.change) == [.delete])
        // One object at a time, the book's side would change too.
        #expect(try state.operations(bringing: book, to: after[book]!, at: stamp(2)).count == 2)
    }

    @Test func anObjectShownAsAnotherEntityIsRefused() throws {
        var state = MergeState()
        try apply(
            try state.operations(bringing: book, to: ResolvedObject(entity: "Book", values: [:]), at: stamp(1)),
            to: &state)
        let error = #expect(throws: SyncError.self) {
            try state.operations(bringing: book, to: ResolvedObject(entity: "Tag", values: [:]), at: stamp(2))
        }
        #expect(error?.code == .entityMismatch)
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func randomEditsAreShownExactlyOnceApplied(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var state = MergeState()
        let pool = (0..<8).map { _ in GlobalID.random(using: &random) }
        var shown = ResolvedObject(entity: "Book", values: [:])
        for step in 1...300 {
            var values = shown.values
            values["score"] = .attribute(.integer64(Int64.random(in: 0..<5, using: &random)))
            if Bool.random(using: &random) { values["author"] = .reference(pool.randomElement(using: &random)) }
            let members = Set(pool.filter { _ in Int.random(in: 0..<3, using: &random) == 0 })
            shown = ResolvedObject(entity: "Book", values: values, relationships: ["tags": members])
            try apply(try state.operations(bringing: book, to: shown, at: stamp(Int64(step))), to: &state)
            #expect(state.resolved(book) == shown)
        }
    }
}
