import Strata

/// One fine-grained check of the conformance suite: an identifier a report can point at, the
/// category it belongs to, what the store must offer for it to run, and its body.
public struct ConformanceCheck: Sendable, Identifiable, Hashable, CustomStringConvertible {
    /// A stable, dotted identifier such as `C.double.negativeZero`, used in reports and waivers.
    public let id: String
    /// The category the check belongs to.
    public let category: ConformanceCategory
    /// What the check verifies, in a sentence.
    public let summary: String
    /// What the store must offer for the check to run; a check whose requirement the store
    /// does not meet is skipped, naming the requirement.
    public let requirement: ConformanceRequirement?
    let body: @Sendable (CheckHarness) throws -> Void

    init(
        _ id: String, _ category: ConformanceCategory, _ summary: String,
        requires requirement: ConformanceRequirement? = nil, body: @escaping @Sendable (CheckHarness) throws -> Void
    ) {
        self.id = id
        self.category = category
        self.summary = summary
        self.requirement = requirement
        self.body = body
    }

    public var description: String { "\(id): \(summary)" }

    public static func == (lhs: ConformanceCheck, rhs: ConformanceCheck) -> Bool { lhs.id == rhs.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// What a store must offer for a check to run.
public enum ConformanceRequirement: Sendable, Hashable, CustomStringConvertible {
    /// The store keeps its objects in a file that outlives the process.
    case fileStorage
    /// The store keeps its objects beyond the process, in a file or on a database server:
    /// a store opened again reads what was saved, and a store type reads, writes and destroys
    /// a closed store by its URL.
    case persistentStorage
    /// The store declares these capabilities.
    case capabilities(StoreCapabilities)
    /// The store keeps its objects beyond the process (in a file or on a server), and the suite
    /// has the store's worker executable (``ConformanceSuite/workerExecutable``, see
    /// ``ConformanceWorker``) to run in a child process.
    case workerExecutable
    /// Every one of the requirements.
    indirect case all([ConformanceRequirement])
    /// The store keeps its objects in a file, and the suite can mark a file as written by a newer
    /// format version (``ConformanceSuite/markNewerFormatVersion``).
    case newerFormatVersion
    /// The store keeps its objects in a file, and its type is not the named one: a check that
    /// hands the store a file of another store type does not run against that type itself.
    case storeTypeOtherThan(String)
    /// The store keeps its objects in a file, and the suite knows the files it may keep beside
    /// it (``ConformanceSuite/documentedSideFiles``).
    case documentedSideFiles

    /// Whether meeting the requirement depends on the capabilities the store declares.
    var needsCapabilities: Bool {
        switch self {
        case .capabilities: true
        case .all(let requirements): requirements.contains(where: \.needsCapabilities)
        default: false
        }
    }

    public var description: String {
        switch self {
        case .fileStorage: "file storage"
        case .persistentStorage: "file or server storage"
        case .capabilities(let capabilities): "capability \(capabilities)"
        case .workerExecutable: "a worker executable (ConformanceSuite workerExecutable:, see ConformanceWorker)"
        case .newerFormatVersion: "a way to mark a file as a newer format version (markNewerFormatVersion:)"
        case .storeTypeOtherThan(let name): "file storage of a store type other than \(name)"
        case .documentedSideFiles: "the store's documented side files (ConformanceSuite documentedSideFiles:)"
        case .all(let requirements): requirements.map(\.description).joined(separator: " and ")
        }
    }
}
