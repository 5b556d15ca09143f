import Foundation
import Logging

/// What a store type is asked when it may migrate a store's file in place, as Core Data
/// migrates an SQLite store: change the file's schema and rows where they are, in one
/// transaction, keeping every object's ID.
///
/// A store type that can do so gives `migrateInPlace` to ``StoreType``'s initializer. Each
/// migration of a store into its own place asks it first; it answers `false` to decline (the
/// migration then copies the store into a new file, as for every other type) and must leave
/// the file as it was when it declines or throws.
public struct InPlaceMigrationRequest: Sendable {
    /// One model version to the next, by a mapping model.
    public struct Step: Sendable {
        /// The model the store is in before the step.
        public let sourceModel: ManagedObjectModel
        /// The model the store is in after it.
        public let destinationModel: ManagedObjectModel
        /// How the source model's objects become the destination model's.
        public let mapping: MappingModel

        /// Creates a step.
        public init(sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel, mapping: MappingModel) {
            self.sourceModel = sourceModel
            self.destinationModel = destinationModel
            self.mapping = mapping
        }
    }

    /// The store's file.
    public let url: URL
    /// The model configuration the store holds; `nil` for every entity.
    public let configurationName: String?
    /// The steps to run, oldest version first: all of them, or none.
    public let steps: [Step]
    /// Where the store logs what it does, and why it declines.
    public let logger: Logger
    /// Called as the migration goes, and once more when it is complete.
    public let progress: (@Sendable (MigrationProgress) -> Void)?

    /// Creates a request.
    public init(
        url: URL, configurationName: String?, steps: [Step], logger: Logger,
        progress: (@Sendable (MigrationProgress) -> Void)?
    ) {
        self.url = url
        self.configurationName = configurationName
        self.steps = steps
        self.logger = logger
        self.progress = progress
    }
}
