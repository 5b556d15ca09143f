/// The objects one fetch returned, in order. When one of them fires a to-many fault, the same
/// relationship of the objects the fetch returned after it fires too, a window at a time, and
/// the members' snapshots are read with it: walking a relationship across a fetch's results
/// costs a few batched store reads per window instead of a read per object and per member.
///
/// A fetch's results hold its cohort; each object refers to it weakly, so a cohort lives as
/// long as the results do.
final class FetchCohort {
    /// How many objects, from the one whose fault fired, load a relationship together.
    static let windowSize = 128
    /// The most member snapshots one window reads ahead: a quarter of the coordinator's row
    /// cache, so that reading ahead never pushes out what it has just read.
    static let memberSnapshotLimit = 2_500

    let objectIDs: [ObjectID]

    init(_ objectIDs: [ObjectID]) { self.objectIDs = objectIDs }

    /// The IDs of the window that starts at `position`.
    func window(from position: Int) -> ArraySlice<ObjectID> {
        objectIDs[position..<min(position + Self.windowSize, objectIDs.count)]
    }
}
