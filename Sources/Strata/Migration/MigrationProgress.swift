/// Progress of a migration: objects copied so far out of the total.
///
/// ``PersistentStoreCoordinator/migratePersistentStore(_:to:type:options:progress:)`` reports
/// it after it has read and renumbered each entity's objects, and once more, with
/// ``completedObjects`` equal to ``totalObjects``, when the destination is saved.
public struct MigrationProgress: Sendable, Hashable {
    /// How many objects have been copied so far.
    public var completedObjects: Int
    /// How many objects the source store holds.
    public var totalObjects: Int

    /// Creates a progress report.
    public init(completedObjects: Int, totalObjects: Int) {
        self.completedObjects = completedObjects
        self.totalObjects = totalObjects
    }
}
