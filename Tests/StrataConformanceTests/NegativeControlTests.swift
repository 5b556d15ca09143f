import Foundation
import Strata
import StrataConformance
import Testing

/// Each deliberately broken store fails exactly the checks aimed at its defect, and the
/// in-memory store passes everything.
@Suite struct NegativeControlTests {
    /// The checks each defect must fail.
    static let expectedFailures: [BrokenStore.Defect: Set<String>] = [
        .dropsSubSecondDates: [
            "C.date.before1970", "C.date.negativeFraction", "C.date.subMicrosecond", "F.between.date", "F.compound.not",
            "F.equal.date", "F.in.date", "F.nil.notEqualMatchesNil", "F.order.date", "R.records.mixed",
            "R.records.paged",
        ],
        .dropsNegativeZero: ["C.double.negativeZero", "C.float.negativeZero"],
        .normalizesStrings: ["C.string.nfd", "R.records.mixed", "R.records.paged"],
        .reusesDeletedReferences: ["B.deletedReferencesAreNotReused"],
        .ignoresOffset: [
            "E.sortedPageAcrossSubentities", "G.limitOffset", "G.limitOffset.withPredicate", "G.nil.position",
            "H.contextDictionariesMatchObjects", "H.contextOffsetPastTheEnd", "H.contextPaginationEachRowOnce",
            "H.limitPastTheEnd", "H.offsetPastTheEnd", "H.paginationEachRowOnce", "H.paginationWithTiesEachRowOnce",
            "R.graph.mixed", "R.records.mixed", "R.records.paged",
        ],
        .reversesSortDirection: [
            "AA.referencesKeptBothWays", "E.sortOnInheritedAttribute", "E.sortedPageAcrossSubentities",
            "F.compare.integersBeyondDoubles", "G.binary.ascending", "G.binary.descending", "G.boolean.ascending",
            "G.boolean.descending", "G.date.ascending", "G.date.descending", "G.decimal.ascending",
            "G.decimal.descending", "G.double.ascending", "G.double.descending", "G.float.ascending",
            "G.float.descending", "G.int16.ascending", "G.int16.descending", "G.int32.ascending", "G.int32.descending",
            "G.int64.ascending", "G.int64.descending", "G.keyPath.toOne", "G.limitOffset",
            "G.limitOffset.withPredicate", "G.multipleDescriptors", "G.nil.position", "G.string.ascending",
            "G.string.caseInsensitive", "G.string.descending", "G.string.localized", "G.uri.ascending",
            "G.uri.descending", "G.uuid.ascending", "G.uuid.descending", "H.batchWithDeletedRecord",
            "H.contextDictionariesMatchObjects", "H.contextLimitZeroIsNoLimit", "H.contextPaginationEachRowOnce",
            "H.dictionary.distinct", "H.dictionary.expression", "H.dictionary.groupBy", "H.limitPastTheEnd",
            "H.limitZeroIsNoLimit", "H.paginationEachRowOnce", "H.paginationWithTiesEachRowOnce",
            "H.pendingChangesInPage", "H.withoutPropertyValues", "I.conflictListsEveryObject",
            "I.conflictNeverReachesTheDecision", "I.decidedSaveCommits", "I.refusedDecisionWritesNothing",
            "I.failedSaveKeepsUserKeys", "I.invalidValue.first", "I.invalidValue.last", "I.invalidValue.middle",
            "I.metadataOnlySave", "I.missingDeletion.first", "I.missingDeletion.last", "I.missingDeletion.middle",
            "I.mixedSaveAppliesEverything", "I.staleVersion.first", "I.staleVersion.last", "I.staleVersion.middle",
            "I.validationNamesObjectAndKey", "I.valuesBySlotSaveAsByName", "J.deleteAfterUpdateConflicts",
            "J.deleteOfDeletedObjectConflicts", "J.twoCoordinatorsConflict", "J.updateOfDeletedObjectConflicts",
            "L.removingAStoreKeepsTheOther", "O.roundTripThroughTheInMemoryStore", "R.graph.mixed", "R.records.mixed",
            "R.records.paged", "U.keysPassedOnWithinOneSave", "U.nullsNeverClash", "U.updateIntoSavedValuesRefused",
            "V.deleteByObjectIDs",
            "V.deleteByPredicate", "V.deleteEmptiesManyToMany", "V.insertDictionaries", "V.insertFromHandler",
            "V.insertUpserts", "V.updateExpressionsReadValuesBeforeTheUpdate", "Y.predicates", "Y.sorting",
        ],
        .excludesSubentities: [
            "B.referencesUniqueAcrossHierarchy", "E.abstractRootFetch", "E.batchUpdateWithoutSubentities",
            "E.countWithSubentities",
            "E.entityKeptAfterReopen", "E.fetchParentIncludesSubentities", "E.predicateOnInheritedAttribute",
            "E.predicateOnParentAttribute", "E.sortOnInheritedAttribute", "E.sortedPageAcrossSubentities",
            "U.inheritedConstraint", "V.deleteOfSubentities",
        ],
        .reversesToManyOrder: [
            "D.inverseSetFromToManySide", "D.inverseSetFromToOneSide", "D.orderedInsertInMiddle",
            "D.orderedKeptAfterReopen", "D.orderedReorderSaved", "D.orderedShuffledAfterReopen",
            "D.referencesToNewObjects", "D.relatedObjectIDsSavedThroughSPI", "D.toManyKeptWhenOtherPropertyChanges",
            "O.roundTripThroughTheInMemoryStore", "R.graph.mixed",
        ],
        .losesLastInsertWhenDeleting: [
            "I.decidedSaveCommits", "I.mixedSaveAppliesEverything", "R.graph.mixed", "R.records.mixed",
            "R.records.paged", "U.keysPassedOnWithinOneSave",
        ],
        .writesInsertsFirst: [
            "I.conflictListsEveryObject", "I.conflictNeverReachesTheDecision", "I.refusedDecisionWritesNothing",
            "I.missingDeletion.first", "I.missingDeletion.last",
            "I.missingDeletion.middle", "I.staleVersion.first", "I.staleVersion.last",
            "I.staleVersion.middle", "J.deleteAfterUpdateConflicts", "J.deleteOfDeletedObjectConflicts",
            "J.twoCoordinatorsConflict", "J.updateOfDeletedObjectConflicts", "U.keysPassedOnWithinOneSave",
        ],
        .ignoresIdentifierForNewStore: ["O.roundTripThroughTheInMemoryStore"],
        .misnamesUnknownEntities: ["P.unknownEntityInFetch"],
        .ignoresReadOnly: ["L.readOnlyStoreRefusesWrites", "P.readOnlyNamesTheStore"],
        .dropsOtherStoresIdentifiers: [
            "AA.comparisonsWithReferences", "AA.deleteRulesAcrossStores", "AA.keyPathsAcrossStores",
            "AA.referencesKeptBothWays",
        ],
        .dropsDerivedValues: ["W.afterDeletions", "W.afterInserts", "W.afterUpdates"],
        .reversesTransformedData: ["C.transformable.bytes", "S.roundTrip"],
        .ignoresComparisonsWithSelf: ["F.keyPath.objectReferences", "X.fetchSourceIdentity"],
        .dropsNestedCompositeElements: ["Y.elementUpdate", "Y.predicates", "Y.roundTrip", "Y.sorting"],
        .ignoresComputedBatchValues: [
            "V.updateExpressionsReadValuesBeforeTheUpdate", "V.updateSetsValues", "V.updateValueThatDoesNotFit",
        ],
        .ignoresVersionConflicts: [
            "I.conflictListsEveryObject", "I.conflictNeverReachesTheDecision", "I.failedSaveKeepsUserKeys",
            "I.staleVersion.first", "I.staleVersion.last",
            "I.staleVersion.middle", "J.deleteAfterUpdateConflicts", "J.newerExpectedVersionConflicts",
            "J.staleDeleteConflicts", "J.staleUpdateConflicts", "J.twoCoordinatorsConflict",
        ],
        .ignoresStringOptions: [
            "F.keyPath.toOne", "F.nil.stringOperators", "F.quantifier.any",
            "F.string.beginsWith.caseAndDiacriticInsensitive", "F.string.beginsWith.caseInsensitive",
            "F.string.beginsWith.diacriticInsensitive", "F.string.contains.caseAndDiacriticInsensitive",
            "F.string.contains.caseInsensitive", "F.string.contains.diacriticInsensitive",
            "F.string.endsWith.caseAndDiacriticInsensitive", "F.string.endsWith.caseInsensitive",
            "F.string.endsWith.diacriticInsensitive", "F.string.equal.caseAndDiacriticInsensitive",
            "F.string.equal.caseInsensitive", "F.string.equal.diacriticInsensitive",
            "F.string.like.caseAndDiacriticInsensitive", "F.string.like.caseInsensitive",
            "F.string.like.diacriticInsensitive", "F.string.matches.caseAndDiacriticInsensitive",
            "F.string.matches.caseInsensitive", "F.string.matches.diacriticInsensitive",
            "F.string.otherComparisonsWithOptions", "F.string.unicode.dottedI", "F.string.unicode.normalization",
            "F.string.unicode.sharpS", "G.limitOffset.withPredicate", "R.graph.mixed",
        ],
        .misreportsConstraintClashes: [
            "U.compoundKeys", "U.duplicateInsertRefused", "U.duplicatesInOneSaveMerged", "U.duplicatesInOneSaveRefused",
            "U.inheritedConstraint", "U.registeredObjectAbsorbsInsert", "U.storeRefusesDuplicates",
            "U.updateIntoSavedValuesRefused", "U.upsertObjectTrump", "U.upsertStoreTrump", "V.insertUpserts",
        ],
        .forgetsItsConfiguration: [
            "AA.comparisonsWithReferences", "AA.deleteRulesAcrossStores", "AA.keyPathsAcrossStores",
            "AA.referencesKeptBothWays", "L.mixesWithTheInMemoryStore", "L.routesByConfiguration",
            "O.roundTripThroughTheInMemoryStore", "P.unknownEntityInSave",
        ],
        .showsSavesPartWay: [
            "I.conflictListsEveryObject", "I.conflictNeverReachesTheDecision", "I.refusedDecisionWritesNothing",
            "I.missingDeletion.first", "I.missingDeletion.last",
            "I.missingDeletion.middle", "I.staleVersion.first", "I.staleVersion.last", "I.staleVersion.middle",
            "K.readersSeeWholeSaves", "U.duplicatesInOneSaveMerged", "U.duplicatesInOneSaveRefused",
            "U.keysPassedOnWithinOneSave",
        ],
        .ignoresToManyUpdates: [
            "AA.deleteRulesAcrossStores", "D.deleteRule.cascadeSubtree", "D.deleteRule.nullifyToMany",
            "D.inverseClearedOnReassign",
            "D.inverseSetFromToManySide", "D.inverseSetFromToOneSide", "D.manyToManyRemoveOneSide",
            "D.minCountValidated", "D.orderedInsertInMiddle", "D.orderedRemoveFromMiddle", "D.orderedReorderSaved",
            "D.referencesToNewObjects", "D.removeFromToMany", "D.toManyOfDeletedMember", "D.toOneNilAfterReopen",
            "R.graph.mixed", "U.upsertObjectTrump", "U.upsertStoreTrump", "V.deleteEmptiesManyToMany",
            "V.deleteRaisesNullifiedVersions",
        ],
    ]

    /// Checks that race threads against each other and so catch a defect in some runs only:
    /// they may fail, and need not.
    static let racingCatches: [BrokenStore.Defect: Set<String>] = [
        .ignoresVersionConflicts: ["K.concurrentUpdatesNeverLost"]
    ]

    /// Every defect but reading slots in name order, which breaks nearly every check (contexts
    /// always send values by slot): ``theSlotCheckCatchesAStoreReadingSlotsInNameOrder()``.
    @Test(arguments: BrokenStore.Defect.allCases.filter { $0 != .readsSlotsInNameOrder })
    func theSuiteCatchesTheDefect(_ defect: BrokenStore.Defect) throws {
        let suite = ConformanceSuite(storeType: BrokenStore.type(defect), storage: .memory, seed: 1)
        let report = suite.run()
        let failed = Set(report.failures.map(\.check.id))
        let racing = Self.racingCatches[defect] ?? []
        #expect(failed.subtracting(racing) == Self.expectedFailures[defect], "\(defect) failed \(failed.sorted())")
        let succeeded = report.succeeded
        #expect(!succeeded, "The report of \(defect) says the run succeeded.")
    }

    /// A store that cannot be opened declares no capabilities; the checks needing one fail
    /// instead of being skipped, so the run cannot pass by skipping.
    @Test func aStoreThatCannotBeOpenedFailsTheRun() throws {
        let unopenable = StoreType(
            name: "Unopenable",
            open: { _ in throw StoreError(code: .io, message: "This store never opens.") },
            readMetadata: { _ in nil },
            writeMetadata: { _, _ in }, destroy: { _ in })
        let suite = ConformanceSuite(storeType: unopenable, storage: .memory, seed: 1)
        let gated = suite.checks.filter { check in
            if case .capabilities = check.requirement { return true }
            return false
        }
        #expect(!gated.isEmpty)
        #expect(
            suite.skippedChecks.allSatisfy { check in
                if case .capabilities = check.requirement { return false }
                return true
            })
        let report = suite.run(gated)
        #expect(report.failures.count == gated.count)
        #expect(report.failures.allSatisfy { "\($0.outcome)".contains("This store never opens.") })
        #expect(!report.succeeded)
    }

    @Test func theSlotCheckCatchesAStoreReadingSlotsInNameOrder() throws {
        let suite = ConformanceSuite(storeType: BrokenStore.type(.readsSlotsInNameOrder), storage: .memory, seed: 1)
        let check = try #require(suite.checks.first { $0.id == "I.valuesBySlotSaveAsByName" })
        guard case .failed = suite.run(check).outcome else {
            Issue.record("\(check.id) let a store that reads slots in name order pass.")
            return
        }
        let sound = ConformanceSuite(storeType: .inMemory, storage: .memory, seed: 1)
        #expect(sound.run(check).outcome == .passed)
    }

    @Test func theInMemoryStorePassesEveryCheckAndTheReportSaysSo() throws {
        let suite = ConformanceSuite(storeType: .inMemory, storage: .memory, waivers: ["C.no.such.check": "typo"])
        let report = suite.run()
        #expect(report.failures.isEmpty)
        #expect(report.unknownWaivers == ["C.no.such.check"])
        #expect(!report.succeeded)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StrataReport-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try report.write(to: folder)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: files.json)) as? [String: Any]
        #expect(json?["storeType"] as? String == "InMemory")
        #expect((json?["checks"] as? [Any])?.count == suite.checks.count)
        let markdown = try String(contentsOf: files.markdown, encoding: .utf8)
        #expect(markdown.contains("# Conformance of InMemory"))
        #expect(markdown.contains("`C.no.such.check`: names no check"))
    }

    @Test func aWaivedFailureIsListedAndDoesNotFailTheRun() throws {
        let reason = "Strings are stored normalized by design."
        let failing = try #require(Self.expectedFailures[.normalizesStrings])
        let suite = ConformanceSuite(
            storeType: BrokenStore.type(.normalizesStrings), storage: .memory,
            waivers: Dictionary(uniqueKeysWithValues: failing.map { ($0, reason) }), seed: 1)
        let report = suite.run()
        let succeeded = report.succeeded
        #expect(succeeded, "The run failed \(report.failures.map(\.check.id)).")
        let waived = report.results.first { $0.check.id == "C.string.nfd" }?.outcome
        #expect(waived == .waived(reason: "Strings are stored normalized by design.", wouldPass: false))
    }

    @Test func everyCheckHasAUniqueIdentifierNamedAfterItsCategory() {
        let checks = ConformanceSuite(storeType: .inMemory, storage: .memory).checks
        #expect(Set(checks.map(\.id)).count == checks.count)
        #expect(checks.allSatisfy { $0.id.hasPrefix("\($0.category.rawValue).") })
    }
}
