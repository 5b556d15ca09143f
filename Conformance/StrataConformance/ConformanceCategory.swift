/// The families of checks. Every category lists its checks in ``checks``, so a new category
/// cannot be added without its checks, and ``ConformanceSuite/checks`` always holds all of them.
/// Categories are lettered `A` to `Z`, then `AA` onwards.
public enum ConformanceCategory: String, Sendable, Hashable, CaseIterable, Codable {
    case lifecycle = "A"
    case identity = "B"
    case attributes = "C"
    case relationships = "D"
    case inheritance = "E"
    case predicates = "F"
    case sorting = "G"
    case fetchShapes = "H"
    case saves = "I"
    case optimisticLocking = "J"
    case concurrency = "K"
    case striping = "L"
    case durability = "M"
    case badFiles = "N"
    case migration = "O"
    case errors = "P"
    case queryGenerations = "Q"
    case workloads = "R"
    case transformedValues = "S"
    case history = "T"
    case constraints = "U"
    case batchRequests = "V"
    case derivedAttributes = "W"
    case fetchedProperties = "X"
    case compositeAttributes = "Y"
    case externalBinaryData = "Z"
    case crossStoreRelationships = "AA"

    /// The category's name in reports.
    public var title: String {
        switch self {
        case .lifecycle: "Lifecycle and metadata"
        case .identity: "Identity"
        case .attributes: "Attribute round trip"
        case .relationships: "Relationships"
        case .inheritance: "Inheritance"
        case .predicates: "Predicates"
        case .sorting: "Sorting"
        case .fetchShapes: "Fetch shapes"
        case .saves: "Saves"
        case .optimisticLocking: "Optimistic locking"
        case .concurrency: "Concurrency"
        case .striping: "Striping"
        case .durability: "Durability"
        case .badFiles: "Bad files"
        case .migration: "Moving data"
        case .errors: "Errors"
        case .queryGenerations: "Query generations"
        case .workloads: "Random workloads"
        case .transformedValues: "Transformed values"
        case .history: "Persistent history"
        case .constraints: "Uniqueness constraints"
        case .batchRequests: "Batch requests"
        case .derivedAttributes: "Derived attributes"
        case .fetchedProperties: "Fetched properties"
        case .compositeAttributes: "Composite attributes"
        case .externalBinaryData: "External binary data"
        case .crossStoreRelationships: "Relationships across stores"
        }
    }

    /// The category's checks.
    public var checks: [ConformanceCheck] {
        switch self {
        case .lifecycle: LifecycleChecks.all
        case .identity: IdentityChecks.all
        case .attributes: AttributeChecks.all
        case .relationships: RelationshipChecks.all
        case .inheritance: InheritanceChecks.all
        case .predicates: PredicateChecks.all
        case .sorting: SortingChecks.all
        case .fetchShapes: FetchShapeChecks.all
        case .saves: SaveChecks.all
        case .optimisticLocking: OptimisticLockingChecks.all
        case .concurrency: ConcurrencyChecks.all
        case .striping: StripingChecks.all
        case .durability: DurabilityChecks.all
        case .badFiles: BadFileChecks.all
        case .migration: MigrationChecks.all
        case .errors: ErrorChecks.all
        case .queryGenerations: QueryGenerationChecks.all
        case .workloads: WorkloadChecks.all
        case .transformedValues: TransformedValueChecks.all
        case .history: HistoryChecks.all
        case .constraints: ConstraintChecks.all
        case .batchRequests: BatchRequestChecks.all + BatchDeleteChecks.all
        case .derivedAttributes: DerivedAttributeChecks.all
        case .fetchedProperties: FetchedPropertyChecks.all
        case .compositeAttributes: CompositeAttributeChecks.all
        case .externalBinaryData: ExternalBinaryDataChecks.all
        case .crossStoreRelationships: CrossStoreRelationshipChecks.all
        }
    }
}
