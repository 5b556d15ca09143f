import Foundation
import Logging

/// Migrates a store file written with one model version to another through a mapping model:
/// Core Data's `NSMigrationManager`.
///
/// A migration into the store's own place is first offered to its type (see
/// ``InPlaceMigrationRequest``): the SQLite type changes the file where it is when SQL can run
/// the mapping, and its objects keep their IDs. Otherwise the source store is opened read-only
/// and never changed. The migrated objects go into a
/// new store in a temporary file beside the destination, which replaces the destination
/// (``StoreType``'s `replace`) only when every object is saved; when anything fails, the
/// temporary store is removed and the error thrown, so that the source and any file at the
/// destination are as they were. Source and destination may be of different store types.
///
/// ```swift
/// let manager = MigrationManager(sourceModel: version1, destinationModel: version2)
/// try manager.migrateStore(at: url, type: .sqlite, mapping: try .inferred(from: version1, to: version2))
/// ```
///
/// Objects are read, converted and saved ten thousand at a time (a whole-file destination is
/// saved once, at the end); memory beyond the stores' own is two references per object, one
/// batch, the objects waiting for to-many members in later batches, and whatever migration
/// policies make (held until the end, with the source values of the objects whose
/// relationships they set). Run it in a `Task` to be able to cancel it: cancellation is checked between
/// batches, and throws ``MigrationError/Code/cancelled``.
public struct MigrationManager: Sendable {
    /// The model the source store was written with.
    public let sourceModel: ManagedObjectModel
    /// The model the destination store is written with.
    public let destinationModel: ManagedObjectModel
    /// The migration policies entity mappings may name, by name (see ``MigrationPolicy``).
    public let policies: [String: any MigrationPolicy]
    /// Where the migration logs its start, end or failure.
    public let logger: Logger

    /// Creates a manager for migrating stores of `sourceModel` to `destinationModel`, with the
    /// migration policies the mapping models name, registered by name: a mapping naming
    /// `App.SplitColour` finds a policy registered as `App.SplitColour` or `SplitColour`.
    public init(
        sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel,
        policies: [String: any MigrationPolicy] = [:], logger: Logger = PersistentStoreCoordinator.silentLogger
    ) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.policies = policies
        self.logger = logger
    }

    /// Migrates the store at `url` in place: the store is rewritten with the destination
    /// model, keeping its identifier and metadata user keys — by its type, in the file, when
    /// the type can (see ``InPlaceMigrationRequest``), else by a copy that replaces it.
    ///
    /// - Parameters:
    ///   - url: The store's file.
    ///   - type: The store's type.
    ///   - configuration: The model configuration the store holds; `nil` for every entity.
    ///   - mapping: How the source model's objects become the destination model's.
    ///   - progress: Called on the calling thread after each batch of objects, and once more,
    ///     with ``MigrationProgress/completedObjects`` equal to
    ///     ``MigrationProgress/totalObjects``, when every object is saved.
    /// - Throws: As ``migrateStore(from:type:configuration:to:type:mapping:progress:)``.
    public func migrateStore(
        at url: URL, type: StoreType, configuration: String? = nil, mapping: MappingModel,
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws {
        try migrateStore(
            from: url, type: type, configuration: configuration, to: url, type: type, mapping: mapping,
            progress: progress)
    }

    /// Migrates the store at `sourceURL` into a new store of `destinationType` at
    /// `destinationURL`, which may be `sourceURL` itself when the type stays the same.
    ///
    /// The new store keeps the source's identifier and metadata user keys. Its objects keep
    /// their IDs, so that references other stores keep to them stay valid, where the mapping
    /// makes one object per source object into each entity hierarchy without a migration
    /// policy, and the destination type hands out references of the source's kind; otherwise
    /// they get new IDs (docs/CROSS-STORE-RELATIONSHIPS.md). Fetch again after migrating.
    ///
    /// - Throws:
    ///   - ``MigrationError`` when the store was not written with ``sourceModel``
    ///     (``MigrationError/Code/noMatchingVersion``), `mapping` does not fit the models
    ///     (``MigrationError/Code/invalidMapping``, ``MigrationError/Code/unknownPolicy``), a
    ///     value cannot be worked out or does not fit (``MigrationError/Code/evaluationFailed``,
    ///     ``MigrationError/Code/invalidValue``), or the task was cancelled; whatever a
    ///     ``MigrationPolicy`` throws;
    ///   - ``StoreError`` when there is no store at `sourceURL` (``StoreError/Code/unknownObject``),
    ///     a store is already at another `destinationURL` or the type would change in place
    ///     (``StoreError/Code/inUse``), or reading or writing a store fails.
    public func migrateStore(
        from sourceURL: URL, type sourceType: StoreType, configuration: String? = nil, to destinationURL: URL,
        type destinationType: StoreType, mapping: MappingModel,
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws {
        let inPlace = sourceURL.standardizedFileURL == destinationURL.standardizedFileURL
        if inPlace && sourceType.name != destinationType.name {
            throw StoreError(
                code: .inUse,
                message:
                    "Cannot migrate the \(sourceType.name) store at '\(sourceURL.nameInMessages)' into a \(destinationType.name) "
                    + "store in its place; choose another destination URL.")
        }
        if !inPlace, let existing = try destinationType.readMetadata(destinationURL) {
            throw StoreError(
                code: .inUse,
                message: "Cannot migrate into '\(destinationURL.nameInMessages)': a \(destinationType.name) store "
                    + "\(existing.storeIdentifier) is already there. Choose another URL, or destroy that store first.")
        }
        if inPlace,
            try Self.migratedInPlace(
                url: sourceURL, type: sourceType, configuration: configuration,
                steps: [.init(sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping)],
                logger: logger, progress: progress)
        {
            return
        }
        try Self.replacing(destinationURL, of: destinationType) { temporary in
            try migrate(
                from: sourceURL, type: sourceType, configuration: configuration, into: temporary, type: destinationType,
                mapping: mapping, progress: progress)
        }
    }

    /// Runs `write` to make a new store at a temporary URL beside `url`, then puts it in the
    /// place of `url`; the temporary store is removed whatever happens.
    ///
    /// A type that cannot replace a store (it gives no `replace`) writes a new store
    /// straight at `url` when there is none there yet, and destroys it when `write` fails; it
    /// cannot migrate a store in place.
    static func replacing(_ url: URL, of type: StoreType, write: (URL) throws -> Void) throws {
        guard let replace = type.replace else {
            guard try type.readMetadata(url) == nil else {
                throw StoreError(
                    code: .unsupported,
                    message: "The \(type.name) store type cannot replace a store's file, so a migration cannot "
                        + "rewrite '\(url.nameInMessages)' in place; migrate it to another URL.")
            }
            do {
                try write(url)
            } catch {
                try? type.destroy(url)
                throw error
            }
            return
        }
        let temporary = temporaryURL(beside: url, of: type)
        defer { try? type.destroy(temporary) }
        try write(temporary)
        try replace(url, temporary)
    }

    /// A URL for a temporary store of `type` beside the store at `url`: the type's own choice
    /// (``StoreType``'s `temporaryURL`), or a hidden file in the folder of `url`, named after it.
    static func temporaryURL(beside url: URL, of type: StoreType) -> URL {
        if let temporaryURL = type.temporaryURL { return temporaryURL(url) }
        return url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.deletingPathExtension().lastPathComponent).migrating-\(UUID().uuidString)"
                + (url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"))
    }

    /// Asks `type` to run `steps` on the store at `url` in place (see
    /// ``InPlaceMigrationRequest``); `false` when it cannot or declines, and the store is then
    /// as it was.
    ///
    /// - Throws: ``MigrationError/Code/noMatchingVersion`` when the store was not written with
    ///   the first step's source model; what the type throws.
    static func migratedInPlace(
        url: URL, type: StoreType, configuration: String?, steps: [InPlaceMigrationRequest.Step], logger: Logger,
        progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws -> Bool {
        guard let migrateInPlace = type.migrateInPlace, let first = steps.first else { return false }
        for step in steps {
            try step.sourceModel.freeze()
            try step.destinationModel.freeze()
        }
        try checkStore(at: url, type: type, configuration: configuration, writtenWith: first.sourceModel)
        var logMetadata: Logger.Metadata = [
            "store.url": "\(url.nameInMessages)", "migration.from": "\(first.sourceModel.versionIdentifiers)",
            "migration.to": "\(steps[steps.count - 1].destinationModel.versionIdentifiers)",
        ]
        let started = ContinuousClock.now
        let migrated: Bool
        do {
            migrated = try migrateInPlace(
                InPlaceMigrationRequest(
                    url: url, configurationName: configuration, steps: steps, logger: logger, progress: progress))
        } catch {
            logMetadata["error"] = "\(error)"
            logger.error("Migration in place failed", metadata: logMetadata)
            throw error
        }
        if migrated {
            logMetadata["migration.duration"] = "\(ContinuousClock.now - started)"
            logger.info("Store migrated in place", metadata: logMetadata)
        }
        return migrated
    }

    /// Throws ``StoreError/Code/unknownObject`` when there is no store at `url`,
    /// ``MigrationError/Code/noMatchingVersion`` when it was written with another model than `model`.
    private static func checkStore(
        at url: URL, type: StoreType, configuration: String?, writtenWith model: ManagedObjectModel
    ) throws {
        guard let metadata = try type.readMetadata(url) else {
            throw StoreError(
                code: .unknownObject, message: "There is no \(type.name) store at '\(url.nameInMessages)' to migrate.")
        }
        let problems = model.compatibilityProblems(configuration: configuration, metadata: metadata)
        guard problems.isEmpty else {
            throw MigrationError(
                code: .noMatchingVersion,
                message: "The \(type.name) store at '\(url.nameInMessages)' was not written with the migration's "
                    + "source model: \(problems.joined(separator: " "))")
        }
    }

    /// Migrates the store at `sourceURL` into a new store at `freshURL`, where there is none.
    func migrate(
        from sourceURL: URL, type sourceType: StoreType, configuration: String?, into freshURL: URL,
        type destinationType: StoreType, mapping: MappingModel, progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws {
        try sourceModel.freeze()
        try destinationModel.freeze()
        try Self.checkStore(at: sourceURL, type: sourceType, configuration: configuration, writtenWith: sourceModel)
        let source = try sourceType.open(
            StoreOpenRequest(
                model: sourceModel, configurationName: configuration, url: sourceURL,
                options: StoreOptions(isReadOnly: true), logger: logger))
        try source.willAttach()
        defer { source.close() }
        let destination = try destinationType.open(
            StoreOpenRequest(
                model: destinationModel, configurationName: configuration, url: freshURL,
                options: StoreOptions(
                    tracksPersistentHistory: source.capabilities.contains(.persistentHistory)
                        && (try source.lastHistoryToken()) != nil),
                identifierForNewStore: source.identifier, userInfoForNewStore: source.metadata.userInfo, logger: logger)
        )
        try destination.willAttach()
        defer { destination.close() }
        let name = "the \(sourceType.name) store at '\(sourceURL.nameInMessages)'"
        var logMetadata: Logger.Metadata = [
            "store.url": "\(sourceURL.nameInMessages)", "migration.from": "\(sourceModel.versionIdentifiers)",
            "migration.to": "\(destinationModel.versionIdentifiers)",
        ]
        logger.info("Migrating store", metadata: logMetadata)
        let started = ContinuousClock.now
        do {
            var engine = MigrationEngine(
                mapping: mapping, source: source, sourceSchema: sourceModel.schema,
                sourceEntityNames: Set(sourceModel.entityNames(inConfiguration: configuration)),
                destination: destination, destinationSchema: destinationModel.schema,
                destinationEntityNames: Set(destinationModel.entityNames(inConfiguration: configuration)),
                sourceName: name, progress: progress)
            engine.policies = policies
            try engine.run()
        } catch {
            logMetadata["error"] = "\(error)"
            logger.error("Migration failed", metadata: logMetadata)
            throw error
        }
        logMetadata["migration.duration"] = "\(ContinuousClock.now - started)"
        logger.info("Store migrated", metadata: logMetadata)
    }
}
