import Foundation
import Strata
import StrataSync
import Testing

/// An object whose required to-one relationship names a deleted object is not shown, as a
/// cascade would have deleted it — in every order of arrival, through chains of them, and back
/// again when the object it requires comes back; its absence from a store is no deletion.
@Suite struct RequiredReferencesTests {
    let replica = ReplicaID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
    let other = ReplicaID(UUID(uuidString: "F0000000-0000-0000-0000-000000000000")!)
    let author = GlobalID.random()
    let book = GlobalID.random()
    let chapter = GlobalID.random()

    /// Books require their author, chapters their book.
    func rules(_ rule: MergeRules.DeleteRule = .deleteWins) -> MergeRules {
        MergeRules(defaultDeleteRule: rule, requiredReferences: ["Book": ["author"], "Chapter": ["book"]])
    }

    private func stamp(_ milliseconds: Int64, _ replica: ReplicaID) -> SyncTimestamp {
        SyncTimestamp(milliseconds: milliseconds, counter: 0, replica: replica)
    }

    private func operation(
        _ object: GlobalID, _ entity: String, _ change: SyncOperation.Change, at stamp: SyncTimestamp
    )
        -> SyncOperation
    {
        SyncOperation(object: object, entity: entity, stamp: stamp, change: change)
    }

    /// An author, a book by them and a chapter of it, made at 1.
    private var library: [SyncOperation] {
        [
            operation(author, "Author", .insert, at: stamp(1, replica)),
            operation(author, "Author", .set(key: "name", value: .attribute("Le Guin")), at: stamp(1, replica)),
            operation(book, "Book", .insert, at: stamp(1, replica)),
            operation(book, "Book", .set(key: "author", value: .reference(author)), at: stamp(1, replica)),
            operation(chapter, "Chapter", .insert, at: stamp(1, replica)),
            operation(chapter, "Chapter", .set(key: "book", value: .reference(book)), at: stamp(1, replica)),
        ]
    }

    @Test func deletingTheAuthorHidesTheBookAndItsChapterInEveryOrder() throws {
        let operations =
            library + [
                operation(author, "Author", .delete, at: stamp(2, replica)),
                operation(book, "Book", .set(key: "title", value: .attribute("Tehanu")), at: stamp(3, other)),
            ]
        var states = Set<[GlobalID: ResolvedObject]>()
        for _ in 0..<30 {
            var state = MergeState(rules: rules())
            for operation in operations.shuffled() + operations.shuffled() { try state.apply(operation) }
            states.insert(state.resolvedObjects())
            #expect(state.isAlive(book), "the book itself was not deleted")
            #expect(!state.shows(book) && !state.shows(chapter))
            // A store that deleted them with the author pushes no deletion of its own.
            #expect(try state.operations(bringing: [book: nil, chapter: nil], at: stamp(4, other)) == [])
        }
        #expect(states == [[:]])
    }

    @Test func withoutTheRuleTheBookStaysWithoutAuthor() throws {
        var state = MergeState()
        for operation in library + [operation(author, "Author", .delete, at: stamp(2, replica))] {
            try state.apply(operation)
        }
        #expect(state.resolved(book)?.values["author"] == .reference(nil))
    }

    @Test func theBookComesBackWithItsAuthorWhereUpdatesWin() throws {
        var state = MergeState(rules: rules(.updateWins))
        for operation in library + [operation(author, "Author", .delete, at: stamp(2, replica))] {
            try state.apply(operation)
        }
        #expect(state.resolved(chapter) == nil)
        try state.apply(
            operation(author, "Author", .set(key: "name", value: .attribute("U. K. Le Guin")), at: stamp(3, other)))
        #expect(state.resolved(book)?.values["author"] == .reference(author))
        #expect(state.resolved(chapter)?.values["book"] == .reference(book))
    }

    @Test func aBookWhoseAuthorHasNotArrivedIsShownWaitingForIt() throws {
        var state = MergeState(rules: rules())
        for operation in library where operation.object != author { try state.apply(operation) }
        #expect(state.resolved(book)?.values["author"] == .reference(author))
        #expect(state.shows(chapter))
    }

    @Test func theRulesTakeTheRequiredSideThatSyncs() throws {
        let model = ManagedObjectModel {
            EntityDescription("Author") {
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author", isOptional: false)
            }
            EntityDescription("Book") {
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books", isOptional: false)
                RelationshipDescription.toOne("editor", destination: "Author")
            }
        }
        try model.freeze()
        #expect(MergeRules().constrained(by: model.schema).requiredReferences == ["Book": ["author"]])
    }
}
