import Foundation
import Strata

/// The conformance suite for one store type: every check of every category, run against the
/// store under test and, where results are compared, against the in-memory oracle.
///
/// ```swift
/// let suite = ConformanceSuite(storeType: .myStore, storage: .file(pathExtension: "mystore"))
/// let report = suite.run()
/// try report.write(to: reportsFolder)
/// ```
public struct ConformanceSuite: Sendable {
    /// The suite's version, written in every report.
    public static let version = "1.0.0"

    /// Where the store under test keeps its objects.
    public enum Storage: Sendable, Hashable {
        /// In the process only; reading back goes through a new coordinator and context on
        /// the same store instance.
        case memory
        /// In a file with this extension; reading back reopens the file in a new coordinator.
        case file(pathExtension: String)
        /// On a database server; reading back reopens the store in a new coordinator. Each
        /// store of each check gets a URL of its own, and is destroyed when the check ends.
        case server(ServerLocations)

        /// Whether the store keeps its objects in a file.
        var isFile: Bool {
            if case .file = self { return true }
            return false
        }
    }

    /// Where the stores of a server-backed store type live: a URL for each store of each check.
    public struct ServerLocations: Sendable, Hashable {
        /// What reports call the server, such as `PostgreSQL on 127.0.0.1:5432`.
        public let name: String
        let locate: @Sendable (_ place: String) -> URL
        let awaitKilledClients: (@Sendable (_ store: URL) throws -> Void)?

        /// Creates locations.
        ///
        /// - Parameters:
        ///   - name: What reports call the server.
        ///   - locate: The URL of the store with the given place name: a lowercase name of
        ///     letters, digits and underscores, at most 63 characters, unique to one store of
        ///     one check of one run (a PostgreSQL store takes it as its schema, say). The
        ///     same place gives the same URL.
        ///   - awaitKilledClients: Returns once the server has finished what the killed clients
        ///     of the store at the URL sent it, or throws when it has not in reasonable time. A
        ///     server may still be committing a transaction its client sent just before it was
        ///     killed; the durability checks call this after each kill, so that what they read
        ///     next is the store's final state. Without it, they read at once.
        public init(
            name: String, locate: @escaping @Sendable (_ place: String) -> URL,
            awaitKilledClients: (@Sendable (_ store: URL) throws -> Void)? = nil
        ) {
            self.name = name
            self.locate = locate
            self.awaitKilledClients = awaitKilledClients
        }

        public static func == (lhs: ServerLocations, rhs: ServerLocations) -> Bool { lhs.name == rhs.name }
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// The store type under test.
    public let storeType: StoreType
    /// Where it keeps its objects.
    public let storage: Storage
    /// The options each store under test is opened with.
    public let options: StoreOptions
    /// Checks the store's author waived, by check identifier, with the reason.
    public let waivers: [String: String]
    /// The seed of every random choice; the same seed replays the same run.
    public let seed: UInt64
    /// The folder where checks create their files.
    public let workDirectory: URL
    /// What the store adds to its file's name for the files it keeps beside it; `nil` when the
    /// suite was not told.
    public let documentedSideFiles: [String]?
    /// Whether ``workDirectory`` is the suite's own temporary folder, removed once its checks
    /// are done, rather than one the caller gave.
    let ownsWorkDirectory: Bool
    /// The capabilities the store declares, or why they could not be read; read once.
    private let capabilityReading = Locked<Result<StoreCapabilities, CheckFailure>?>(nil)
    /// The store's worker executable, which calls ``ConformanceWorker/run(storeType:options:arguments:)``;
    /// the durability checks and the unreadable-file check run it in a child process.
    public let workerExecutable: URL?
    /// How many times each durability check kills the worker during saves.
    public let durabilityKills: Int
    /// Rewrites a saved store file (closed, at the given URL) so that it claims a format version
    /// newer than the store type understands; `nil` when the store cannot tell versions apart.
    public let markNewerFormatVersion: (@Sendable (URL) throws -> Void)?

    /// How many times each durability check kills the worker unless the suite is told otherwise:
    /// 50, or 1,000 when the environment variable `STRATA_SOAK` is set to anything but `0` or
    /// nothing (as `make soak` does).
    public static var defaultDurabilityKills: Int {
        let soak = ProcessInfo.processInfo.environment["STRATA_SOAK"] ?? ""
        return soak.isEmpty || soak == "0" ? 50 : 1_000
    }

    /// Creates a suite for `storeType`.
    ///
    /// - Parameters:
    ///   - storeType: The store type under test.
    ///   - storage: Where the store keeps its objects.
    ///   - options: The options each store under test is opened with.
    ///   - waivers: Check identifiers the author waives, each with a reason for the report.
    ///   - seed: The seed of every random choice; a random one when `nil`. The report prints it.
    ///   - workDirectory: Where checks create files; a fresh temporary folder when `nil`, removed
    ///     when its checks are done. A worker dropping root privileges must be able to reach it
    ///     (the default, under `/tmp`, is).
    ///   - workerExecutable: The store's worker executable (see ``ConformanceWorker``); without
    ///     it, the checks requiring ``ConformanceRequirement/workerExecutable`` are skipped.
    ///   - durabilityKills: How many times each durability check kills the worker;
    ///     ``defaultDurabilityKills`` when `nil`.
    ///   - markNewerFormatVersion: Rewrites a closed store file so that it claims a newer format
    ///     version; without it, ``ConformanceRequirement/newerFormatVersion`` checks are skipped.
    ///   - documentedSideFiles: What the store may add to its file's name for the files it keeps
    ///     beside it, such as `["-wal", "-shm"]`; without it, the check that lists the store's
    ///     folder (``ConformanceRequirement/documentedSideFiles``) is skipped.
    public init(
        storeType: StoreType, storage: Storage, options: StoreOptions = StoreOptions(), waivers: [String: String] = [:],
        seed: UInt64? = nil, workDirectory: URL? = nil, workerExecutable: URL? = nil, durabilityKills: Int? = nil,
        markNewerFormatVersion: (@Sendable (URL) throws -> Void)? = nil, documentedSideFiles: [String]? = nil
    ) {
        self.documentedSideFiles = documentedSideFiles
        self.storeType = storeType
        self.storage = storage
        self.options = options
        self.waivers = waivers
        self.seed = seed ?? UInt64.random(in: .min ... .max)
        self.workDirectory =
            workDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "StrataConformance-\(storeType.name)-\(UUID().uuidString)", isDirectory: true)
        ownsWorkDirectory = workDirectory == nil
        self.workerExecutable = workerExecutable
        self.durabilityKills = max(durabilityKills ?? Self.defaultDurabilityKills, 1)
        self.markNewerFormatVersion = markNewerFormatVersion
    }

    /// Every check, in category order: the argument list of a parameterised test.
    public var checks: [ConformanceCheck] { ConformanceCategory.allCases.flatMap(\.checks) }

    /// Waivers that name no check (a typo, or a check that was renamed).
    public var unknownWaivers: [String] {
        let known = Set(checks.map(\.id))
        return waivers.keys.filter { !known.contains($0) }.sorted()
    }

    /// The requirement of `check` this suite does not meet, for which it skips the check; `nil`
    /// when it runs it. A store that declares no capability because it could not be opened skips
    /// nothing for that: the checks needing capabilities fail instead when run.
    public func unmetRequirement(of check: ConformanceCheck) -> ConformanceRequirement? {
        guard let requirement = check.requirement, !isMet(requirement) else { return nil }
        return requirement
    }

    /// The checks this suite skips, with the requirement each lacks, without running any.
    public var skippedChecks: [(check: ConformanceCheck, requirement: ConformanceRequirement)] {
        checks.compactMap { check in unmetRequirement(of: check).map { (check, $0) } }
    }

    /// Runs one check. A check needing capabilities fails when the store under test cannot be
    /// opened to read them, so that a store that cannot open never passes by skipping.
    public func run(_ check: ConformanceCheck) -> CheckResult {
        let outcome: CheckOutcome
        if let requirement = check.requirement, requirement.needsCapabilities,
            case .failure(let error) = capabilities
        {
            outcome = .failed("The store could not be opened to read its capabilities: \(error).")
        } else if let requirement = unmetRequirement(of: check) {
            outcome = .skipped(requirement)
        } else {
            let result = execute(check)
            if let reason = waivers[check.id] {
                outcome = .waived(reason: reason, wouldPass: result == .passed)
            } else {
                outcome = result
            }
        }
        return CheckResult(check: check, outcome: outcome)
    }

    /// Runs every check and returns the report.
    public func run() -> ConformanceReport { run(checks) }

    /// Runs `checks`, in the order given, and returns their report.
    public func run(_ checks: [ConformanceCheck]) -> ConformanceReport {
        ConformanceReport(suite: self, declaredCapabilities: declaredCapabilities(), results: checks.map(run))
    }

    /// The capabilities the store under test declares, read once from a store opened for the
    /// purpose, or why it could not be opened.
    var capabilities: Result<StoreCapabilities, CheckFailure> {
        capabilityReading.withLock { reading in
            if let reading { return reading }
            let result = Result {
                try CheckHarness(suite: self, checkID: "capabilities").withStore { $0.store.capabilities }
            }.mapError { CheckFailure("\(type(of: $0)): \($0)") }
            reading = result
            return result
        }
    }

    /// The capabilities the store under test declares; none when it cannot be opened.
    func declaredCapabilities() -> StoreCapabilities {
        (try? capabilities.get()) ?? []
    }

    private func isMet(_ requirement: ConformanceRequirement) -> Bool {
        switch requirement {
        case .fileStorage: storage.isFile
        case .persistentStorage: storage != .memory
        case .capabilities(let needed): (try? capabilities.get())?.isSuperset(of: needed) ?? true
        case .workerExecutable: storage != .memory && workerExecutable != nil
        case .newerFormatVersion: storage.isFile && markNewerFormatVersion != nil
        case .storeTypeOtherThan(let name): storage.isFile && storeType.name != name
        case .documentedSideFiles: storage.isFile && documentedSideFiles != nil
        case .all(let requirements): requirements.allSatisfy(isMet)
        }
    }

    private func execute(_ check: ConformanceCheck) -> CheckOutcome {
        do {
            let harness = try CheckHarness(suite: self, checkID: check.id)
            try check.body(harness)
            return .passed
        } catch let failure as CheckFailure {
            return .failed(failure.message)
        } catch {
            return .failed("Unexpected \(type(of: error)): \(error).")
        }
    }
}
