import Strata

/// I, two-phase saves (``IncrementalStore/save(_:committingAfter:)``): the store checks and writes
/// its part, asks for the decision once, and commits only when the decision returns.
extension SaveChecks {
    /// What a refusing decision throws.
    private struct Refusal: Error {}

    static let decidedSaveCommits = category.check(
        "decidedSaveCommits",
        "A two-phase save asks for its decision once and, when it returns, applies everything, after reopening too."
    ) { harness in
        let (fixture, changes) = try harness.withStore { stack in
            let fixture = try Fixture(stack)
            var changes = try fixture.validChanges(stack)
            changes.userInfo = ["decided": true]
            var decisions = 0
            try stack.store.save(changes) { decisions += 1 }
            try expectEqual(decisions, 1, "The times the two-phase save asked for its decision")
            return (fixture, changes)
        }
        try harness.withStore { stack in
            let stored = Dictionary(
                try stack.storedSamples().map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
            try expectEqual(
                stored.count, fixture.before.count + changes.inserted.count - changes.deleted.count,
                "The number of Samples after the decided save, after reopening")
            for change in changes.inserted + changes.updated {
                try expectEqual(
                    stored[change.objectID]?.values["string"], change.values["string"],
                    "The string of \(change.objectID) after the decided save, after reopening")
            }
            try expectEqual(
                stack.store.metadata.userInfo["decided"], true, "The user key of the decided save, after reopening")
        }
    }

    static let refusedDecisionWritesNothing = category.check(
        "refusedDecisionWritesNothing",
        "A two-phase save whose decision throws rethrows that error and writes nothing, after reopening too."
    ) { harness in
        let (fixture, inserted) = try harness.withStore { stack in
            let fixture = try Fixture(stack)
            var changes = try fixture.validChanges(stack)
            changes.userInfo = ["refused": true]
            try expectError("the decision's own error", { try stack.store.save(changes) { throw Refusal() } }) {
                $0 is Refusal
            }
            try fixture.expectUnchanged(stack, after: "the refused save", inserted: changes.inserted.map(\.objectID))
            try expectEqual(stack.store.metadata.userInfo["refused"], nil, "The user key of the refused save")
            return (fixture, changes.inserted.map(\.objectID))
        }
        try harness.withStore { stack in
            try fixture.expectUnchanged(stack, after: "the refused save, after reopening", inserted: inserted)
            try expectEqual(
                stack.store.metadata.userInfo["refused"], nil, "The user key of the refused save, after reopening")
        }
    }

    static let conflictNeverReachesTheDecision = category.check(
        "conflictNeverReachesTheDecision",
        "A two-phase save of a stale version fails with the conflict without asking for a decision."
    ) { harness in
        try harness.withStore { stack in
            let fixture = try Fixture(stack)
            var changes = try fixture.validChanges(stack)
            let stale = try fixture.twice[0]
            changes.updated.append(fixture.update(stale, expecting: 1))
            var decisions = 0
            try expectConflicts(
                [.init(objectID: stale.objectID, expectedVersion: 1, storedVersion: 2)],
                of: "the two-phase save of a stale version"
            ) { try stack.store.save(changes) { decisions += 1 } }
            try expectEqual(decisions, 0, "The times a conflicting two-phase save asked for its decision")
            try fixture.expectUnchanged(
                stack, after: "the conflicting two-phase save", inserted: changes.inserted.map(\.objectID))
        }
    }
}
