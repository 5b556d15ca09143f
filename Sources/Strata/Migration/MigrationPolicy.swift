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

    /// Answers a function a value expression calls: `FUNCTION($entityPolicy, "selector:",
    /// arguments…)` in an entity mapping that names this policy, or `FUNCTION(CAST("Name",
    /// "Class"), "selector:", arguments…)` for a policy registered as `Name` — where Core Data
    /// calls the method of that name on the policy or class.
    ///
    /// - Parameters:
    ///   - selector: The method's name, such as `"hexFromColour:"`.
    ///   - arguments: The values of the other arguments; a source object is its
    ///     ``AttributeValue/objectID(_:)``.
    /// - Returns: The value the expression gives.
    /// - Throws: By default ``MigrationError/Code/evaluationFailed`` naming the selector.
    func callFunction(_ selector: String, arguments: [AttributeValue]) throws -> AttributeValue
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

    /// Throws ``MigrationError/Code/evaluationFailed``: the policy answers no function.
    public func callFunction(_ selector: String, arguments: [AttributeValue]) throws -> AttributeValue {
        throw MigrationError(
            code: .evaluationFailed,
            message: "Migration policy \(type(of: self)) answers no function '\(selector)'; implement "
                + "callFunction(_:arguments:) to answer it.")
    }
}

/// A migration policy as the target of `FUNCTION($entityPolicy, …)` or of a class a value
/// expression names, keeping the first error it throws for the migration to report.
final class MigrationPolicyTarget: ExpressionFunctionTarget {
    let policy: any MigrationPolicy
    let reader: MigrationSourceReader

    init(_ policy: any MigrationPolicy, reader: MigrationSourceReader) {
        self.policy = policy
        self.reader = reader
    }

    var objectIdentity: AttributeValue { .null }

    func resolvedValue(forKey key: String) -> ResolvedValue? { nil }

    func callFunction(_ selector: String, arguments: [EvaluatedValue], label: String) throws(FetchPredicateError)
        -> EvaluatedValue
    {
        var values: [AttributeValue] = []
        for argument in arguments {
            switch argument {
            case .value(let value): values.append(value)
            case .object(let object): values.append(object.objectIdentity)
            case .collection:
                throw FetchPredicateError(
                    code: .evaluation, message: "'\(label)' passes a collection to '\(selector)'; pass values.")
            }
        }
        do {
            return .value(try policy.callFunction(selector, arguments: values))
        } catch {
            reader.record(error)
            throw FetchPredicateError(code: .evaluation, message: "'\(label)' failed: \(error)")
        }
    }
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
