import Foundation
import Strata

/// T: a store that declares persistent history and is opened with `tracksPersistentHistory`
/// records every save that changes objects as exactly one transaction, with its author, context
/// name and changes (tombstones for deletions), numbers transactions so that tokens only grow,
/// also across reopening and deletions, deletes up to a point and nothing after it, and records
/// nothing for a save that fails, lets a migration replace its history keeping the numbers; and,
/// when it can be opened twice, tells another coordinator's
/// saves from its own (`remoteHistory(after:)`), which contexts merging automatically then merge.
enum HistoryChecks {
    static var all: [ConformanceCheck] {
        [
            everySaveRecordedOnce, deletionsKeepTombstones, tokensGrowAcrossReopenAndDeletion,
            fetchAfterAKeptTransactionLeavesItOut, deleteBeforeKeepsLaterTransactions, failedSaveRecordsNothing,
            requestsFilterAndShapeResults,
            remoteHistoryFindsOtherWritersSaves, remoteChangesMergeIntoContexts, replacedHistoryKeepsNumbers,
            batchRequestsRecorded, batchDeletionRecordsRulesAndTombstones,
        ]
    }

    private static let category = ConformanceCategory.history
    private static let requirement = ConformanceRequirement.capabilities(.persistentHistory)

    static let everySaveRecordedOnce = category.check(
        "everySaveRecordedOnce",
        "Each save that changes objects is one transaction with the context's author and name and one change per "
            + "object (an update listing the properties it changed); a save of user keys alone records nothing.",
        requires: requirement
    ) { harness in
        try withHistory(harness) { stack in
            stack.context.performAndWait {
                stack.context.transactionAuthor = "importer"
            }
            let ids = try stack.saveSamples(1...3)
            try stack.run {
                try stack.context.existingObject(with: ids[0]).setValue("renamed", forKey: "string")
                try stack.context.save()
                try stack.context.delete(try stack.context.existingObject(with: ids[1]))
                try stack.context.save()
            }
            try stack.save(StoreChangeSet(userInfo: ["note": "metadata only"]))
            let transactions = try fetch(stack, after: .token(nil))
            try expectEqual(transactions.count, 3, "The number of transactions after three saves of objects")
            for transaction in transactions {
                try expectEqual(transaction.author, "importer", "The author of \(transaction.token)")
                try expectEqual(transaction.contextName, "checks", "The context name of \(transaction.token)")
                try expectEqual(
                    transaction.storeIdentifier, stack.store.identifier, "The store of \(transaction.token)")
            }
            let shapes = transactions.map { transaction in
                (transaction.changes ?? []).map { "\($0.changeType) \($0.changedObjectID.uriString)" }.sorted()
            }
            try expectEqual(
                shapes,
                [
                    ids.map { "insert \($0.uriString)" }.sorted(), ["update \(ids[0].uriString)"],
                    ["delete \(ids[1].uriString)"],
                ], "The changes of the three transactions")
            try expectEqual(
                transactions[1].changes?.first?.updatedProperties, ["string"],
                "The updated properties of the renaming")
        }
    }

    static let deletionsKeepTombstones = category.check(
        "deletionsKeepTombstones",
        "A deletion's change keeps the values of the attributes marked preservedAfterDeletion, and only those.",
        requires: requirement
    ) { harness in
        try withHistory(harness) { stack in
            let passport = try stack.insert("Passport", ["number": "P-1234"])
            try stack.save()
            let id = stack.run { passport.objectID }
            try stack.run {
                try stack.context.delete(passport)
                try stack.context.save()
            }
            let deletion = try require(
                try fetch(stack, after: .token(nil)).last?.changes?.first, "The deletion recorded no change.")
            try expectEqual(deletion.changeType, .delete, "The change type of the deletion")
            try expectEqual(deletion.changedObjectID, id, "The object of the deletion")
            try expectEqual(deletion.tombstone, ["number": "P-1234"], "The tombstone of the deleted Passport")
        }
    }

    static let tokensGrowAcrossReopenAndDeletion = category.check(
        "tokensGrowAcrossReopenAndDeletion",
        "Transaction tokens only grow: after reopening the store, and after its whole history is deleted, when "
            + "the current token stays the newest recorded.",
        requires: requirement
    ) { harness in
        var tokens: [PersistentHistoryToken] = []
        for serial in 1...2 {
            try withHistory(harness) { stack in
                _ = try stack.saveSamples(serial...serial)
                tokens += try stack.coordinator.currentPersistentHistoryTokens()
            }
        }
        try withHistory(harness) { stack in
            let before = try fetch(stack, after: .token(nil)).map(\.token)
            try expectEqual(before, tokens, "The tokens read back after reopening")
            _ = try stack.coordinator.execute(.deleteHistory(before: .token(tokens.last)))
            try expectEqual(try fetch(stack, after: .token(nil)).count, 0, "Transactions left after deleting all")
            try expectEqual(
                try stack.coordinator.currentPersistentHistoryTokens(), [tokens[1]],
                "The current token after deleting all history (the newest recorded)")
            _ = try stack.saveSamples(3...3)
            tokens += try stack.coordinator.currentPersistentHistoryTokens()
        }
        try expect(
            tokens.count == 3 && tokens[0] < tokens[1] && tokens[1] < tokens[2], "The tokens \(tokens) do not grow.")
        let data = try JSONEncoder().encode(tokens[2])
        try expectEqual(
            try JSONDecoder().decode(PersistentHistoryToken.self, from: data), tokens[2], "A token through JSON")
    }

    static let fetchAfterAKeptTransactionLeavesItOut = category.check(
        "fetchAfterAKeptTransactionLeavesItOut",
        "A history fetch after a transaction that is still recorded, by token or by transaction, answers the later "
            + "transactions only, and none after the last.",
        requires: requirement
    ) { harness in
        try withHistory(harness) { stack in
            let all = try threeTransactions(stack)
            try expectEqual(
                try fetch(stack, after: .token(all[0].token)), Array(all[1...]),
                "The transactions after the first token")
            try expectEqual(
                try fetch(stack, after: .transaction(all[1])), [all[2]], "The transactions after the second")
            try expectEqual(try fetch(stack, after: .token(all[2].token)), [], "The transactions after the last token")
        }
    }

    static let deleteBeforeKeepsLaterTransactions = category.check(
        "deleteBeforeKeepsLaterTransactions",
        "Deleting history up to a transaction removes it and those before it, and leaves the later ones as they were.",
        requires: requirement
    ) { harness in
        try withHistory(harness) { stack in
            let all = try threeTransactions(stack)
            let result = try stack.coordinator.execute(.deleteHistory(before: .transaction(all[1])))
            try expectEqual(result, .count(2), "The result of deleting up to the second transaction")
            try expectEqual(try fetch(stack, after: .token(nil)), [all[2]], "The transactions left")
            try expectEqual(
                try fetch(stack, after: .transaction(all[1])), [all[2]], "The transactions after the second")
            _ = try stack.coordinator.execute(.deleteHistory(before: .date(all[2].timestamp.addingTimeInterval(-1))))
            try expectEqual(
                try fetch(stack, after: .token(nil)), [all[2]], "The transactions left after a date before them")
        }
    }

    static let failedSaveRecordsNothing = category.check(
        "failedSaveRecordsNothing",
        "A save that conflicts writes no transaction; the next save's token follows the last one.",
        requires: requirement
    ) { harness in
        try withHistory(harness) { stack in
            let ids = try stack.saveSamples(1...1)
            let before = try fetch(stack, after: .token(nil))
            let stale = StoreChangeSet(
                updated: [.init(objectID: ids[0], values: ["serial": .integer64(1)], expectedVersion: 7)])
            try expectError(
                "StoreError.conflict from a save expecting version 7", { try stack.save(stale) },
                matches: { ($0 as? StoreError)?.code == .conflict })
            try expectEqual(try fetch(stack, after: .token(nil)), before, "The history after a conflicting save")
            _ = try stack.saveSamples(2...2)
            let after = try fetch(stack, after: .token(nil))
            try expect(
                after.count == 2 && after[0].token < after[1].token, "The history after the next save is \(after).")
        }
    }

    static let requestsFilterAndShapeResults = category.check(
        "requestsFilterAndShapeResults",
        "History requests filter transactions by author and changes by type, and answer with counts, transactions "
            + "without changes, changes alone, or a status.",
        requires: requirement
    ) { harness in
        try withHistory(harness) { stack in
            for (author, serial) in [("a", 1), ("b", 2), ("a", 3)] {
                stack.context.performAndWait { stack.context.transactionAuthor = author }
                _ = try stack.saveSamples(serial...serial)
            }
            var request = PersistentHistoryRequest.fetchHistory(after: .token(nil))
            request.transactionPredicate = try FetchPredicate(format: "author == 'a'")
            request.resultType = .count
            try expectEqual(try stack.coordinator.execute(request), .count(2), "Transactions by author a")
            request.resultType = .transactionsOnly
            guard case .transactions(let bare) = try stack.coordinator.execute(request) else {
                throw CheckFailure("A transactions-only fetch gave no transactions.")
            }
            try expect(bare.count == 2 && bare.allSatisfy { $0.changes == nil }, "Transactions only: \(bare).")
            request.resultType = .changesOnly
            request.changePredicate = try FetchPredicate(format: "changeType == 0 AND entityName == 'Sample'")
            guard case .changes(let changes) = try stack.coordinator.execute(request) else {
                throw CheckFailure("A changes-only fetch gave no changes.")
            }
            try expectEqual(changes.count, 2, "Insertions of Samples by author a")
            var deletion = PersistentHistoryRequest.deleteHistory(before: .token(bare.first?.token))
            deletion.resultType = .statusOnly
            try expectEqual(try stack.coordinator.execute(deletion), .status(true), "A status-only deletion")
            try expectEqual(
                try fetch(stack, after: .token(nil)).map(\.author), ["b", "a"],
                "The authors left after deleting up to the first transaction")
        }
    }

    static let remoteHistoryFindsOtherWritersSaves = category.check(
        "remoteHistoryFindsOtherWritersSaves",
        "remoteHistory(after:) answers nil while nothing was written, finds another coordinator's save with its "
            + "changes, and moves past the store's own saves without reporting them.",
        requires: .capabilities([.persistentHistory, .multiProcessAccess])
    ) { harness in
        try withWatcherAndWriter(harness, posts: false) { watcher, writer in
            _ = try watcher.store.remoteHistory(after: 0)
            try expect(
                try watcher.store.remoteHistory(after: 0) == nil,
                "remoteHistory(after:) found something although nothing was written since it was last asked.")
            let own = try watcher.saveSamples(1...1)
            let afterOwn = try require(
                try watcher.store.remoteHistory(after: 0), "remoteHistory(after:) gave nil after the store's own save.")
            try expectEqual(afterOwn.transactions, [], "The transactions found after the store's own save")
            try expect(afterOwn.lastTransactionNumber > 0, "The last transaction number after a save is 0.")
            let others = try writer.saveSamples(2...3)
            let found = try require(
                try watcher.store.remoteHistory(after: afterOwn.lastTransactionNumber),
                "remoteHistory(after:) gave nil after another coordinator's save.")
            try expectEqual(found.transactions.count, 1, "The transactions found after another coordinator's save")
            try expectEqual(
                Set((found.transactions.first?.changes ?? []).map(\.changedObjectID)), Set(others),
                "The objects of the other coordinator's transaction")
            try expect(
                found.lastTransactionNumber > afterOwn.lastTransactionNumber,
                "The last transaction number did not move past the other coordinator's save.")
            try expect(
                !found.transactions.contains { ($0.changes ?? []).contains { own.contains($0.changedObjectID) } },
                "The store's own save was reported as another writer's.")
            try expect(
                try watcher.store.remoteHistory(after: found.lastTransactionNumber) == nil,
                "remoteHistory(after:) found something again although nothing was written since.")
        }
    }

    static let remoteChangesMergeIntoContexts = category.check(
        "remoteChangesMergeIntoContexts",
        "A coordinator posting remote changes makes contexts that merge automatically see another coordinator's "
            + "update and deletion after checkForRemoteChanges(), through its row cache.",
        requires: .capabilities([.persistentHistory, .multiProcessAccess])
    ) { harness in
        try withWatcherAndWriter(harness, posts: true) { watcher, writer in
            let ids = try writer.saveSamples(1...2)
            try watcher.coordinator.checkForRemoteChanges()
            watcher.run { watcher.context.automaticallyMergesChangesFromParent = true }
            let objects = try watcher.run { try ids.map { try watcher.context.existingObject(with: $0) } }
            try expectEqual(try watcher.value(objects[0], "string"), "s1", "The first Sample's string")
            try writer.run {
                try writer.context.existingObject(with: ids[0]).setValue("changed elsewhere", forKey: "string")
                try writer.context.delete(try writer.context.existingObject(with: ids[1]))
                try writer.context.save()
            }
            try watcher.coordinator.checkForRemoteChanges()
            try expectEqual(
                try watcher.value(objects[0], "string"), "changed elsewhere",
                "The first Sample's string after the other coordinator's update was merged")
            try expect(
                watcher.run { objects[1].isDeleted || objects[1].managedObjectContext == nil },
                "The Sample the other coordinator deleted is still in the merging context.")
        }
    }

    static let replacedHistoryKeepsNumbers = category.check(
        "replacedHistoryKeepsNumbers",
        "replaceHistory(with:) swaps the whole history for the given transactions, keeping their numbers, fields "
            + "and changes; the next save follows the last given; numbers that do not grow are invalidChange.",
        requires: requirement
    ) { harness in
        try withHistory(harness) { stack in
            stack.context.performAndWait { stack.context.transactionAuthor = "first" }
            _ = try stack.saveSamples(1...2)
            stack.context.performAndWait { stack.context.transactionAuthor = "second" }
            let second = try stack.saveSamples(3...3)
            var kept = try require(fetch(stack, after: .token(nil)).last, "The second save recorded nothing.")
            kept.token.transactionNumber = 5
            kept.changes = kept.changes?.map { change in
                var change = change
                change.transactionToken = kept.token
                return change
            }
            try stack.store.replaceHistory(with: [kept])
            let replaced = try fetch(stack, after: .token(nil))
            try expectEqual(replaced.map(\.token.transactionNumber), [5], "The transaction numbers after replacing")
            try expectEqual(replaced.first?.author, "second", "The author of the kept transaction")
            try expectEqual(
                replaced.first?.changes?.map(\.changedObjectID), second, "The objects of the kept transaction")
            _ = try stack.saveSamples(4...4)
            try expectEqual(
                try fetch(stack, after: .token(nil)).map(\.token.transactionNumber), [5, 6],
                "The transaction numbers after the next save")
            try expectError(
                "StoreError.invalidChange for transactions numbered 2 then 1",
                {
                    var first = kept
                    first.token.transactionNumber = 1
                    var later = kept
                    later.token.transactionNumber = 2
                    try stack.store.replaceHistory(with: [later, first])
                }, matches: { ($0 as? StoreError)?.code == .invalidChange })
        }
    }

    /// Runs `body` with two coordinators on the store: a watcher, whose store tracks history
    /// (and posts remote changes when `posts`), and a writer, whose store tracks history too.
    private static func withWatcherAndWriter(
        _ harness: CheckHarness, posts: Bool, _ body: (_ watcher: CheckStack, _ writer: CheckStack) throws -> Void
    ) throws {
        var options = harness.suite.options
        options.tracksPersistentHistory = true
        let writerCoordinator = try harness.makeCoordinator()
        let writerStore = try harness.openStore(options: options, in: writerCoordinator)
        options.postsRemoteChangeNotifications = posts
        let watcherCoordinator = try harness.makeCoordinator()
        let watcherStore = try harness.openStore(options: options, in: watcherCoordinator)
        defer {
            try? watcherCoordinator.remove(watcherStore)
            try? writerCoordinator.remove(writerStore)
        }
        try body(
            CheckStack(coordinator: watcherCoordinator, store: watcherStore),
            CheckStack(coordinator: writerCoordinator, store: writerStore))
    }

    /// Runs `body` with a stack whose store tracks history and whose context is named `checks`.
    static let batchRequestsRecorded = category.check(
        "batchRequestsRecorded",
        "Each batch insert, update and deletion run from a context is one transaction with the context's author "
            + "and name, listing every object it changed.",
        requires: requirement
    ) { harness in
        try withHistory(harness) { stack in
            stack.run { stack.context.transactionAuthor = "batcher" }
            let sample = ConformanceModel.sample
            let inserted = try stack.run {
                var insert = BatchInsertRequest(entityName: sample, objects: [["serial": 1], ["serial": 2]])
                insert.resultType = .objectIDs
                return try stack.context.execute(insert).objectIDs ?? []
            }
            try stack.run {
                _ = try stack.context.execute(
                    BatchUpdateRequest(entityName: sample, propertiesToUpdate: ["string": .constant("batched")]))
                _ = try stack.context.execute(BatchDeleteRequest(objectIDs: [inserted[0]]))
            }
            let transactions = try fetch(stack, after: .token(nil))
            try expectEqual(transactions.count, 3, "The number of transactions after three batch requests")
            for transaction in transactions {
                try expectEqual(transaction.author, "batcher", "The author of \(transaction.token)")
                try expectEqual(transaction.contextName, "checks", "The context name of \(transaction.token)")
            }
            let shapes = transactions.map { transaction in
                (transaction.changes ?? []).map { "\($0.changeType) \($0.changedObjectID.uriString)" }.sorted()
            }
            try expectEqual(
                shapes,
                [
                    inserted.map { "insert \($0.uriString)" }.sorted(),
                    inserted.map { "update \($0.uriString)" }.sorted(),
                    ["delete \(inserted[0].uriString)"],
                ], "The changes of the three batch requests")
            try expectEqual(
                Set((transactions[1].changes ?? []).compactMap(\.updatedProperties)), [["string"]],
                "The updated properties of the batch update")
        }
    }

    static let batchDeletionRecordsRulesAndTombstones = category.check(
        "batchDeletionRecordsRulesAndTombstones",
        "A batch deletion's transaction lists the objects its cascade rules deleted (with their tombstones) and "
            + "the objects its nullify rules changed (with the relationships they emptied).",
        requires: requirement
    ) { harness in
        try withHistory(harness, configuration: ConformanceModel.graph) { stack in
            let team = try stack.insert("Team", ["serial": 1, "name": "Blue"])
            let person = try stack.insert("Person", ["serial": 1, "name": "Ada"])
            let passport = try stack.insert("Passport", ["number": "P-77"])
            try stack.run {
                try person.setObject(team, forKey: "team")
                try person.setObject(passport, forKey: "passport")
            }
            try stack.save()
            try stack.run {
                _ = try stack.context.execute(BatchDeleteRequest(objectIDs: [person.objectID]))
            }
            let transactions = try fetch(stack, after: .token(nil))
            let changes = transactions.last?.changes ?? []
            try expectEqual(
                changes.map { "\($0.changeType) \($0.changedObjectID.uriString)" }.sorted(),
                [
                    "delete \(passport.objectID.uriString)", "delete \(person.objectID.uriString)",
                    "update \(team.objectID.uriString)",
                ].sorted(), "The changes of the batch deletion")
            try expectEqual(
                changes.first { $0.changedObjectID == passport.objectID }?.tombstone, ["number": "P-77"],
                "The tombstone of the cascaded Passport")
            try expectEqual(
                changes.first { $0.changedObjectID == team.objectID }?.updatedProperties, ["members"],
                "The updated properties of the Team")
        }
    }

    private static func withHistory(
        _ harness: CheckHarness, configuration: String? = nil, _ body: (CheckStack) throws -> Void
    ) throws {
        var options = harness.suite.options
        options.tracksPersistentHistory = true
        let coordinator = try harness.makeCoordinator()
        let store = try harness.openStore(configuration: configuration, options: options, in: coordinator)
        defer { try? coordinator.remove(store) }
        try body(CheckStack(coordinator: coordinator, store: store, contextName: "checks"))
    }

    /// The transactions after `point`, with their changes.
    /// Saves three samples, one a save, and returns the three transactions they recorded.
    private static func threeTransactions(_ stack: CheckStack) throws -> [PersistentHistoryTransaction] {
        for serial in 1...3 { _ = try stack.saveSamples(serial...serial) }
        let all = try fetch(stack, after: .token(nil))
        try expectEqual(all.count, 3, "Transactions after three saves")
        return all
    }

    private static func fetch(
        _ stack: CheckStack, after point: PersistentHistoryRequest.Point
    ) throws -> [PersistentHistoryTransaction] {
        guard case .transactions(let transactions) = try stack.coordinator.execute(.fetchHistory(after: point)) else {
            throw CheckFailure("A history fetch gave no transactions.")
        }
        return transactions
    }
}
