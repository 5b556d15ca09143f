/// Custom steps for the entity mappings that name it (``EntityMapping/migrationPolicyName``):
/// Core Data's `NSEntityMigrationPolicy`.
///
/// A policy's mapping runs in three stages. First ``createDestinationInstances(for:in:)`` is
/// called for each source object the mapping takes; then, once every mapping has made its
/// objects, ``createRelationships(for:in:)`` for each object this mapping made of its
/// destination entity; then ``endEntityMapping(in:)`` once. Every stage has a default: make
/// one object from the property mappings, set the relationships the relationship mappings
/// give, do nothing.
///
/// ```swift
/// /// Version 3 keeps a post's colour in an entity of its own.
/// struct SplitColour: MigrationPolicy {
///     func createDestinationInstances(for source: MigrationSourceInstance, in migration: MigrationPolicyContext) throws {
///         let post = try migration.makeDestinationInstance(for: source)
///         let colour = try migration.insertDestinationInstance(ofEntity: "Color")
///         try colour.setValue(source.value(forKey: "hexColor"), forKey: "hex")
///         try post.setObject(colour, forKey: "color")
///     }
/// }
/// let manager = MigrationManager(sourceModel: v2, destinationModel: v3, policies: ["Post2ToPost3MigrationPolicy": SplitColour()])
/// ```
///
/// The objects a policy makes are held in memory until they are saved, at the end of the
/// migration.
public protocol MigrationPolicy: Sendable {
    /// Makes the destination objects for the source object `source`.
    func createDestinationInstances(for source: MigrationSourceInstance, in migration: MigrationPolicyContext) throws

    /// Sets the relationships of `destination`, one of the objects this mapping made of its
    /// destination entity.
    func createRelationships(for destination: MigrationDestinationInstance, in migration: MigrationPolicyContext)
        throws

    /// Finishes the mapping, after every object it made has its relationships.
    func endEntityMapping(in migration: MigrationPolicyContext) throws
}

extension MigrationPolicy {
    /// Makes one object from the mapping's attribute mappings
    /// (``MigrationPolicyContext/makeDestinationInstance(for:)``).
    public func createDestinationInstances(for source: MigrationSourceInstance, in migration: MigrationPolicyContext)
        throws
    {
        try migration.makeDestinationInstance(for: source)
    }

    /// Sets the relationships the mapping's relationship mappings give
    /// (``MigrationPolicyContext/setMappedRelationships(of:)``).
    public func createRelationships(for destination: MigrationDestinationInstance, in migration: MigrationPolicyContext)
        throws
    {
        try migration.setMappedRelationships(of: destination)
    }

    /// Does nothing.
    public func endEntityMapping(in migration: MigrationPolicyContext) throws {}
}

/// The policy of a custom entity mapping that names none: every stage does its default.
struct DefaultMigrationPolicy: MigrationPolicy {}

/// Finds the policy an entity mapping names among registered ones.
enum MigrationPolicyLookup {
    /// The policy registered under `name`, or under its last dot-separated part: Core Data
    /// mapping models name a policy with its module (`App.SplitColour`), which a Swift
    /// registration may leave out.
    static func policy(named name: String, in policies: [String: any MigrationPolicy]) -> (any MigrationPolicy)? {
        if let exact = policies[name] { return exact }
        guard let last = name.split(separator: ".").last else { return nil }
        return policies[String(last)]
    }
}
