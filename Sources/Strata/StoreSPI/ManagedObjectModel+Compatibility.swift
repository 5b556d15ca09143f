extension ManagedObjectModel {
    /// The names of the entities a store added for `configuration` holds: the configuration's
    /// members, or every entity when `configuration` is `nil`.
    public func entityNames(inConfiguration configuration: String?) -> [String] {
        guard let configuration else { return entities.map(\.name) }
        return configurations[configuration] ?? []
    }

    /// Whether a store described by `metadata` can be opened with this model for
    /// `configuration` without migrating: ``compatibilityProblems(configuration:metadata:)``
    /// finds none.
    ///
    /// - Precondition: the model is frozen.
    public func isConfiguration(_ configuration: String?, compatibleWithStoreMetadata metadata: StoreMetadata)
        -> Bool
    {
        compatibilityProblems(configuration: configuration, metadata: metadata).isEmpty
    }

    /// Why a store described by `metadata` cannot be opened with this model for
    /// `configuration` without migrating, one sentence per problem naming the entity: an entity
    /// of the configuration missing from the store, an entity of the store unknown to the
    /// model, a version hash that differs, or a hash layout this version does not compute.
    ///
    /// - Precondition: the model is frozen.
    /// - Complexity: O(*n*) in the number of entities.
    public func compatibilityProblems(configuration: String?, metadata: StoreMetadata) -> [String] {
        guard metadata.versionHashesVersion == StoreMetadata.currentVersionHashesVersion else {
            return [
                "The store's version hashes use layout \(metadata.versionHashesVersion); Strata computes layout \(StoreMetadata.currentVersionHashesVersion)."
            ]
        }
        let hashes = schema.entityVersionHashes
        var problems: [String] = []
        for name in entityNames(inConfiguration: configuration).sorted() where metadata.versionHashes[name] == nil {
            problems.append("Entity '\(name)' is in the model but not in the store.")
        }
        for (name, stored) in metadata.versionHashes.sorted(by: { $0.key < $1.key }) {
            guard let current = hashes[name] else {
                problems.append("Entity '\(name)' is in the store but not in the model.")
                continue
            }
            if current != stored {
                problems.append("Entity '\(name)' has changed since the store was written (its version hash differs).")
            }
        }
        return problems
    }

    /// Throws when a store described by `metadata` cannot be opened with this model for
    /// `configuration` without migrating, as ``compatibilityProblems(configuration:metadata:)``
    /// finds.
    ///
    /// - Parameters:
    ///   - configuration: the configuration the store holds; `nil` for every entity.
    ///   - metadata: the store's metadata, as its file or server holds it.
    ///   - place: the store as messages name it: its file's path in quotes, or its type.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/incompatibleModel`` naming `place`
    ///   and every problem.
    /// - Precondition: the model is frozen.
    public func checkCompatible(configuration: String?, metadata: StoreMetadata, place: String) throws {
        let problems = compatibilityProblems(configuration: configuration, metadata: metadata)
        guard problems.isEmpty else {
            throw StoreError(
                code: .incompatibleModel,
                message: "\(place) was written with another model; migrate it first. " + problems.joined(separator: " ")
            )
        }
    }
}
