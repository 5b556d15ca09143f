import Foundation
import Logging

/// The model versions an app has shipped, oldest first, and the mapping models between them:
/// how a store written with any of them reaches the current one, step by step (progressive
/// migration).
///
/// Each step starts at the store's version: a mapping model whose source is that version
/// takes it to the newest version the mapping reaches; without one, a mapping inferred from
/// that version to the next one does. A plan may leave versions out to skip them (1 → 2 → 4),
/// or give a mapping model that jumps over them.
///
/// ```swift
/// let plan = MigrationPlan(models: [version1, version2, version4], mappingModels: [mapping2to4])
/// try plan.migrateStore(at: url, type: .sqlite, to: version4)
/// ```
///
/// A mapping model is found between two versions by the entity version hashes its entity
/// mappings carry: inferred and loaded ones have them; give a hand-written one its models with
/// ``MappingModel/init(entityMappings:sourceModel:destinationModel:)``.
///
/// A coordinator with a plan (``PersistentStoreCoordinator/migrationPlan``) migrates a store
/// when it is added with `addStore(_:)`, as its description's
/// ``PersistentStoreDescription/shouldMigrateStoreAutomatically`` and
/// ``PersistentStoreDescription/shouldInferMappingModelAutomatically`` allow.
public struct MigrationPlan: Sendable {
    /// One model version.
    public struct Version: Sendable {
        /// The version's name, for messages (an Xcode model version's name, say).
        public var name: String
        /// The model.
        public var model: ManagedObjectModel

        /// Creates a version.
        public init(name: String, model: ManagedObjectModel) {
            self.name = name
            self.model = model
        }
    }

    /// One step of a migration: from one version to a later one, by a mapping model.
    public struct Step: Sendable {
        /// The version the step starts from.
        public var source: Version
        /// The version the step reaches.
        public var destination: Version
        /// The mapping the step runs.
        public var mapping: MappingModel
        /// Whether the mapping was inferred rather than given.
        public var isInferred: Bool
    }

    /// The versions, oldest first.
    public var versions: [Version]
    /// Mapping models between versions.
    public var mappingModels: [MappingModel]
    /// The migration policies the mapping models name, by name (see ``MigrationPolicy``).
    public var policies: [String: any MigrationPolicy]

    /// Creates a plan from named versions, oldest first.
    public init(
        versions: [Version], mappingModels: [MappingModel] = [], policies: [String: any MigrationPolicy] = [:]
    ) {
        self.versions = versions
        self.mappingModels = mappingModels
        self.policies = policies
    }

    /// Creates a plan from models, oldest first, each named by its first
    /// ``ManagedObjectModel/versionIdentifiers`` entry, or by its place ("1", "2", …).
    public init(
        models: [ManagedObjectModel], mappingModels: [MappingModel] = [], policies: [String: any MigrationPolicy] = [:]
    ) {
        self.init(
            versions: models.enumerated().map { index, model in
                Version(name: model.versionIdentifiers.first ?? "\(index + 1)", model: model)
            },
            mappingModels: mappingModels, policies: policies)
    }

    /// The newest version a store described by `metadata` can be opened with, without
    /// migrating, for `configuration`; `nil` when there is none.
    public func version(matching metadata: StoreMetadata, configuration: String? = nil) -> Version? {
        versionIndex(matching: metadata, configuration: configuration).map { versions[$0] }
    }

    /// The steps that take a store described by `metadata` to `target`; none when the store
    /// already matches it.
    ///
    /// `target` is the plan's last version when it is not one of them.
    ///
    /// - Parameters:
    ///   - metadata: The store's metadata.
    ///   - configuration: The model configuration the store holds; `nil` for every entity.
    ///   - target: The model the store is to reach.
    ///   - allowsInference: Whether a step without a mapping model may infer one.
    /// - Throws: ``MigrationError`` with code ``MigrationError/Code/noMatchingVersion`` naming
    ///   the store's versions when no version of the plan matches it (or only versions newer
    ///   than `target`); ``MigrationError/Code/noMapping`` naming both versions when a step has
    ///   no mapping model and `allowsInference` is `false`;
    ///   ``MigrationError/Code/cannotInferMapping`` when a step's mapping cannot be inferred.
    public func steps(
        from metadata: StoreMetadata, configuration: String? = nil, to target: ManagedObjectModel,
        allowsInference: Bool = true
    ) throws(MigrationError) -> [Step] {
        for version in versions { try Self.freeze(version.model, named: version.name) }
        try Self.freeze(target, named: "target")
        if target.isConfiguration(configuration, compatibleWithStoreMetadata: metadata) { return [] }
        var versions = versions
        let targetHashes = target.schema.entityVersionHashes
        var last = versions.lastIndex { $0.model.schema.entityVersionHashes == targetHashes }
        if last == nil {
            versions.append(Version(name: target.versionIdentifiers.first ?? "current", model: target))
            last = versions.count - 1
        }
        let plan = MigrationPlan(
            versions: Array(versions[...(last ?? 0)]), mappingModels: mappingModels, policies: policies)
        guard let start = plan.versionIndex(matching: metadata, configuration: configuration) else {
            throw noMatchingVersion(metadata, versions: plan.versions)
        }
        var steps: [Step] = []
        var index = start
        while index < plan.versions.count - 1 {
            let step = try plan.step(from: index, allowsInference: allowsInference)
            steps.append(step.step)
            index = step.reaching
        }
        return steps
    }

    /// The step from version `index`: by the mapping model reaching furthest, else inferred
    /// to the next version.
    private func step(from index: Int, allowsInference: Bool) throws(MigrationError) -> (step: Step, reaching: Int) {
        let source = versions[index]
        let sourceHashes = source.model.schema.entityVersionHashes
        var best: (mapping: MappingModel, reaching: Int)?
        for mapping in mappingModels where Self.hashes(mapping.sourceEntityVersionHashes, fit: sourceHashes) {
            let destinationHashes = mapping.destinationEntityVersionHashes
            guard
                let reaching = versions.indices.last(where: {
                    $0 > index && Self.hashes(destinationHashes, fit: versions[$0].model.schema.entityVersionHashes)
                }), reaching > best?.reaching ?? index
            else { continue }
            best = (mapping, reaching)
        }
        if let best {
            return (
                Step(source: source, destination: versions[best.reaching], mapping: best.mapping, isInferred: false),
                best.reaching
            )
        }
        let next = versions[index + 1]
        guard allowsInference else {
            throw MigrationError(
                code: .noMapping,
                message: "No mapping model takes a store from model version '\(source.name)' to '\(next.name)', "
                    + "and inferring one is not allowed (shouldInferMappingModelAutomatically is false).")
        }
        let mapping = try MappingModel.inferred(from: source.model, to: next.model)
        return (Step(source: source, destination: next, mapping: mapping, isInferred: true), index + 1)
    }

    /// Runs the steps that take the store at `url` to `target`: all of them in the file, in
    /// one go, when the store's type can (see ``InPlaceMigrationRequest``); else each into a
    /// temporary store, the last one put in the place of the store only when every step
    /// succeeded. The store is left as it was when one fails.
    ///
    /// - Parameters:
    ///   - url: The store's file.
    ///   - type: The store's type.
    ///   - configuration: The model configuration the store holds; `nil` for every entity.
    ///   - target: The model the store is migrated to.
    ///   - allowsInference: Whether a step without a mapping model may infer one.
    ///   - logger: Where each step logs.
    ///   - progress: Called after each batch of objects of each step.
    /// - Returns: The steps run; none when the store already matches `target`.
    /// - Throws: As ``steps(from:configuration:to:allowsInference:)`` and
    ///   ``MigrationManager/migrateStore(from:type:configuration:to:type:mapping:progress:)``;
    ///   ``StoreError/Code/unknownObject`` when there is no store at `url`.
    @discardableResult
    public func migrateStore(
        at url: URL, type: StoreType, configuration: String? = nil, to target: ManagedObjectModel,
        allowsInference: Bool = true, logger: Logger = PersistentStoreCoordinator.silentLogger,
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws -> [Step] {
        guard let metadata = try type.readMetadata(url) else {
            throw StoreError(
                code: .unknownObject, message: "There is no \(type.name) store at '\(url.nameInMessages)' to migrate.")
        }
        let steps = try steps(
            from: metadata, configuration: configuration, to: target, allowsInference: allowsInference)
        guard !steps.isEmpty else { return [] }
        if try MigrationManager.migratedInPlace(
            url: url, type: type, configuration: configuration,
            steps: steps.map {
                .init(sourceModel: $0.source.model, destinationModel: $0.destination.model, mapping: $0.mapping)
            }, logger: logger, progress: progress)
        {
            return steps
        }
        var intermediates: [URL] = []
        defer { for intermediate in intermediates { try? type.destroy(intermediate) } }
        try MigrationManager.replacing(url, of: type) { temporary in
            var current = url
            for (index, step) in steps.enumerated() {
                let next = index == steps.count - 1 ? temporary : MigrationManager.temporaryURL(beside: url, of: type)
                if next != temporary { intermediates.append(next) }
                try MigrationManager(
                    sourceModel: step.source.model, destinationModel: step.destination.model, policies: policies,
                    logger: logger
                )
                .migrate(
                    from: current, type: type, configuration: configuration, into: next, type: type,
                    mapping: step.mapping, progress: progress)
                current = next
            }
        }
        return steps
    }

    /// The index of the newest version a store described by `metadata` matches.
    private func versionIndex(matching metadata: StoreMetadata, configuration: String?) -> Int? {
        versions.indices.last { index in
            (try? versions[index].model.freeze()) != nil
                && versions[index].model.isConfiguration(configuration, compatibleWithStoreMetadata: metadata)
        }
    }

    /// Whether every hash a mapping names is the version's hash of that entity (and it names one).
    private static func hashes(_ named: [String: [UInt8]], fit version: [String: [UInt8]]) -> Bool {
        !named.isEmpty && named.allSatisfy { version[$0.key] == $0.value }
    }

    private static func freeze(_ model: ManagedObjectModel, named name: String) throws(MigrationError) {
        do {
            try model.freeze()
        } catch {
            throw MigrationError(
                code: .invalidMapping, message: "Model version '\(name)' is not valid. \(error)", underlying: error)
        }
    }

    private func noMatchingVersion(_ metadata: StoreMetadata, versions: [Version]) -> MigrationError {
        let identifiers =
            metadata.versionIdentifiers.isEmpty
            ? "no version identifiers" : "version identifiers \(metadata.versionIdentifiers)"
        let known = versions.isEmpty ? "none" : versions.map { "'\($0.name)'" }.joined(separator: ", ")
        return MigrationError(
            code: .noMatchingVersion,
            message: "The store (\(identifiers), entities \(metadata.versionHashes.keys.sorted())) matches no model "
                + "version the migration knows: \(known). Give the model the store was written with to the "
                + "migration plan.")
    }
}
