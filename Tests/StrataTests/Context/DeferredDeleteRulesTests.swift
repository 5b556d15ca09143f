import Foundation
import Testing

@testable import Strata

/// Deleting saved objects whose values or members are not loaded reads nothing: their delete
/// rules wait, and apply together (rows, members and the objects they change read in batches)
/// before anything can see the result. What the application sees is what applying each rule at
/// once would have given.
@Suite struct DeferredDeleteRulesTests {
    typealias Stack = DeferredMemberChangesTests.Stack

    @Test func deletingUnloadedObjectsReadsNothingUntilOneIsLookedAtThenReadsInBatches() throws {
        let stack = try Stack()
        let deleted = [stack.teams[0], stack.players[4], stack.albums[0]]
        try stack.context.performAndWait {
            let before = stack.reads
            for id in deleted { try stack.context.delete(stack.context.object(with: id)) }
            #expect(stack.reads == before, "no row and no members read")
            let orphan = stack.context.object(with: stack.players[0])
            #expect(try orphan.value(forKey: "team") == .null, "the rule nullified the deleted team's players")
            let after = stack.reads
            #expect(after.rows == before.rows && after.members == before.members, "nothing read one by one")
            #expect(
                after.rowBatches == before.rowBatches + 2,
                "the three deleted rows, then the players and tracks their rules change")
            #expect(after.memberBatches == before.memberBatches + 2, "the team's players, then the album's tracks")
            try stack.context.save()
        }
        for id in deleted + stack.tracks[0..<2] { #expect(!stack.isSaved(id)) }
        #expect(try stack.savedNames(stack.teams[1], "players") == ["dan"])
        for id in stack.players[0..<3] { #expect(try stack.savedValue(id, "team") == .null) }
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
        for id in [stack.albums[0], stack.tracks[0], stack.tracks[1]] { #expect(stack.isSaved(id)) }
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
            try stack.context.delete(stack.context.object(with: stack.teams[1]))
            #expect(stack.context.hasChanges)
            #expect(throws: StoreError.self) { try stack.context.save() }
            #expect(stack.context.deletesAwaitingRules.map(\.objectID) == [stack.teams[1]])
        }
        stack.store.failsReads.withLock { $0 = false }
        #expect(stack.reads.saves == savesBefore, "nothing written")
        #expect(stack.isSaved(stack.teams[1]))
        try stack.context.performAndWait { try stack.context.save() }
        #expect(!stack.isSaved(stack.teams[1]))
        for id in stack.players[3..<5] { #expect(try stack.savedValue(id, "team") == .null) }
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
