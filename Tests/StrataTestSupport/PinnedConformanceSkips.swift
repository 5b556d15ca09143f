/// The conformance checks a whole-file store skips (one opening of a file at a time, no query
/// generations, no remote history, no external binary data): the part the suite tests of the
/// XML, binary and JSON stores pin in common.
public enum PinnedConformanceSkips {
    public static let wholeFileStore: Set<String> = [
        "J.twoOpeningsOfOneFileConflict", "K.batchLoadsSeeOtherOpeningsSaves", "Q.closeReleasesViews",
        "Q.contextAdvancesAsDocumented", "Q.faultOfDeletedObjectFires", "Q.fetchUnchangedAfterOtherSave",
        "Q.toManyUnchangedAfterOtherSave", "Q.tokensEqualAndOrdered", "Q.viewAnswersAsTheStoreDidWhenOpened",
        "T.remoteChangesMergeIntoContexts", "T.remoteHistoryFindsOtherWritersSaves", "Z.deletion", "Z.inlineLimit",
        "Z.migration", "Z.roundTrip", "Z.updates",
    ]
}
