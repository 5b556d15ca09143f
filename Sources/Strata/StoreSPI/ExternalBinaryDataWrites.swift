import Foundation

/// The files one save wrote and those it made obsolete: the first are removed if the save fails,
/// the second once it commits. A save that is tried again (its transaction rolled back and run
/// anew) calls ``startAttempt()`` first, so the files of the abandoned attempt go too.
package final class ExternalBinaryDataWrites {
    package var written: [ExternalDataFileName] = []
    package var obsolete: [ExternalDataFileName] = []
    private var abandoned: [ExternalDataFileName] = []

    package init() {}

    /// Starts a new attempt of the save: what the last one wrote is abandoned.
    package func startAttempt() {
        abandoned += written
        written = []
        obsolete = []
    }

    /// Removes what is no longer needed once the save committed: the files of abandoned
    /// attempts at once, the obsolete ones through `removals`, which keeps them while a read
    /// view that began before the commit may still read them.
    package func committed(
        in files: ExternalBinaryData, removals: ExternalBinaryDataRemovals, oldestReader: ContinuousClock.Instant?
    ) {
        files.remove(abandoned)
        removals.add(obsolete)
        removals.removeDue(in: files, oldestReader: oldestReader)
    }

    /// Removes every file the save wrote, after it failed.
    package func failed(in files: ExternalBinaryData) {
        files.remove(written + abandoned)
    }
}

extension AttributeDescription {
    /// Whether a store declaring ``StoreCapabilities/externalBinaryStorage`` keeps this
    /// attribute's values as external binary data: a binary or transformable attribute that
    /// allows external storage.
    package var storesExternally: Bool {
        allowsExternalBinaryDataStorage && (type == .binary || type == .transformable)
    }
}

/// The files saves made obsolete, kept while a read view (a query generation) that began
/// before they became obsolete is open, since it may still read the values they hold. Files
/// still kept when the store closes are left to the sweep of a later opening.
package final class ExternalBinaryDataRemovals: Sendable {
    private let pending = Locked<[(name: ExternalDataFileName, since: ContinuousClock.Instant)]>([])

    package init() {}

    /// Notes `names` as obsolete from now.
    package func add(_ names: [ExternalDataFileName]) {
        guard !names.isEmpty else { return }
        let now = ContinuousClock.now
        pending.withLock { $0 += names.map { ($0, now) } }
    }

    /// Removes the files no open read view can read: all when `oldestReader` is `nil`, else those
    /// obsolete since before it began.
    package func removeDue(in files: ExternalBinaryData, oldestReader: ContinuousClock.Instant?) {
        let due = pending.withLock { pending -> [ExternalDataFileName] in
            func isDue(_ entry: (name: ExternalDataFileName, since: ContinuousClock.Instant)) -> Bool {
                oldestReader.map { entry.since < $0 } ?? true
            }
            let due = pending.filter(isDue).map(\.name)
            pending.removeAll(where: isDue)
            return due
        }
        files.remove(due)
    }
}
