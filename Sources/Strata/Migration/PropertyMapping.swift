/// How one property of a destination entity gets its value: Core Data's
/// `NSPropertyMapping`.
///
/// The value expression is evaluated for each source object with `$source` bound to it:
/// `$source.title` copies an attribute, `FUNCTION($manager,
/// "destinationInstancesForEntityMappingNamed:sourceInstances:", "PostToPost", $source.posts)`
/// finds the objects another entity mapping made from the source's. A mapping without an
/// expression leaves the property at its default value.
///
/// ```swift
/// PropertyMapping(name: "hexColor", valueExpression: .source("color"))
/// ```
public struct PropertyMapping: Sendable, Hashable {
    /// The destination property's name.
    public var name: String
    /// The expression giving the value; `nil` for the property's default value.
    public var valueExpression: FetchExpression?
    /// Free-form key-value pairs for the application.
    public var userInfo: [String: String]

    /// Creates a property mapping.
    public init(name: String, valueExpression: FetchExpression?, userInfo: [String: String] = [:]) {
        self.name = name
        self.valueExpression = valueExpression
        self.userInfo = userInfo
    }

    /// The source key the expression copies when it is exactly `$source.key`; `nil` otherwise.
    var copiedSourceKey: String? {
        guard case .keyPathOn(.variable(let variable), let key)? = valueExpression,
            MigrationVariable.source.matches(variable), !key.contains(".")
        else { return nil }
        return key
    }
}

extension FetchExpression {
    /// `$source.keyPath`: the value of `keyPath` on the source object of a migration.
    public static func source(_ keyPath: String) -> FetchExpression {
        .keyPathOn(.variable(MigrationVariable.source.rawValue), keyPath)
    }

    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:",
    /// mapping, sources)`: the destination objects the entity mapping named `mapping` made
    /// from the source objects `sources` evaluates to.
    public static func destinationInstances(
        forEntityMappingNamed mapping: String, sourceInstances sources: FetchExpression
    ) -> FetchExpression {
        managerCall(MigrationFunction.destinationInstancesForEntityMapping, mapping, sources)
    }

    /// `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
    /// relationship, sources)`: the destination objects made from the source objects `sources`
    /// evaluates to, each by the entity mapping of its own entity.
    public static func destinationInstances(
        forSourceRelationshipNamed relationship: String, sourceInstances sources: FetchExpression
    ) -> FetchExpression {
        managerCall(MigrationFunction.destinationInstancesForSourceRelationship, relationship, sources)
    }

    private static func managerCall(_ selector: String, _ name: String, _ sources: FetchExpression) -> FetchExpression {
        .function(
            "FUNCTION",
            [
                .variable(MigrationVariable.manager.rawValue), .constant(.string(selector)), .constant(.string(name)),
                sources,
            ])
    }
}

/// The variables a migration binds while it evaluates value expressions.
enum MigrationVariable: String {
    /// The source object.
    case source
    /// The migration itself, the target of `FUNCTION($manager, …)`.
    case manager
    /// The entity mapping's migration policy, the target of `FUNCTION($entityPolicy, …)`.
    case entityPolicy

    /// Whether `name`, with or without its `$`, is this variable.
    func matches(_ name: String) -> Bool {
        name == rawValue || name == "$" + rawValue
    }
}

/// The `$manager` methods a value expression may call.
enum MigrationFunction {
    static let destinationInstancesForEntityMapping = "destinationInstancesForEntityMappingNamed:sourceInstances:"
    static let destinationInstancesForSourceRelationship =
        "destinationInstancesForSourceRelationshipNamed:sourceInstances:"
}
