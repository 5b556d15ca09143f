import Foundation
import Strata

/// The body of a store's conformance worker: a small executable that the suite runs in a child
/// process, for the checks that kill a process during saves, fill its disk or take away write
/// permission on its folder (category M), or open a file without permission to read it
/// (`N.noPermission`).
///
/// A store's author adds an executable target whose `main.swift` is one line, and hands its
/// path to the suite:
///
/// ```swift
/// // Sources/MyStoreConformanceWorker/main.swift
/// import Foundation
/// import StrataConformance
///
/// exit(ConformanceWorker.run(storeType: .myStore, arguments: Array(CommandLine.arguments.dropFirst())))
/// ```
///
/// ```swift
/// let suite = ConformanceSuite(
///     storeType: .myStore, storage: .file(pathExtension: "mystore"),
///     workerExecutable: ConformanceWorker.executable(named: "MyStoreConformanceWorker"))
/// ```
///
/// The worker speaks a small line protocol on its standard output that only the suite reads;
/// its commands and output may change with the suite's version.
public enum ConformanceWorker {
    /// The executable called `name` that the package's build put beside the running test
    /// runner, such as a store's worker target: where `swift build --build-tests` leaves every
    /// executable of the package.
    public static func executable(named name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name)
    }

    /// Runs the worker command in `arguments` against stores of `storeType` and returns the
    /// process's exit status.
    ///
    /// - Parameters:
    ///   - storeType: The store type under test, the same the suite was made with.
    ///   - options: The options the suite opens stores with.
    ///   - arguments: The command line without the program's name, as the suite passes it.
    /// - Returns: 0 when the command ran (what it found is on standard output); 2 for a command
    ///   line the worker does not understand; 3 when the command could not run.
    public static func run(storeType: StoreType, options: StoreOptions = StoreOptions(), arguments: [String]) -> Int32 {
        do {
            switch arguments.first {
            case "save":
                guard arguments.count == 4, let scenario = DurabilityScenario(rawValue: arguments[1]),
                    let count = Int(arguments[3])
                else { return usage(arguments) }
                try save(scenario, at: storeURL(arguments[2]), count: count, storeType: storeType, options: options)
            case "open":
                guard arguments.count == 2 else { return usage(arguments) }
                try openWithoutPrivileges(URL(fileURLWithPath: arguments[1]), storeType: storeType, options: options)
            case "full":
                guard arguments.count == 2 else { return usage(arguments) }
                try saveOnFullDisk(at: URL(fileURLWithPath: arguments[1]), storeType: storeType, options: options)
            case "readonly":
                guard arguments.count == 2 else { return usage(arguments) }
                try saveInReadOnlyFolder(
                    at: URL(fileURLWithPath: arguments[1]), storeType: storeType, options: options)
            default:
                return usage(arguments)
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("The conformance worker failed: \(error)\n".utf8))
            return 3
        }
    }

    /// How the suite names the store at `url` on the worker's command line: a file by its path,
    /// a store on a server by its URL.
    static func argument(_ url: URL) -> String { url.isFileURL ? url.path : url.absoluteString }

    /// The store ``argument(_:)`` named.
    private static func storeURL(_ argument: String) -> URL {
        argument.contains("://")
            ? URL(string: argument) ?? URL(fileURLWithPath: argument) : URL(fileURLWithPath: argument)
    }

    /// Writes `line` to standard output at once, unbuffered, so that a kill loses nothing written.
    static func report(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func usage(_ arguments: [String]) -> Int32 {
        FileHandle.standardError.write(
            Data("The conformance worker does not understand '\(arguments.joined(separator: " "))'.\n".utf8))
        return 2
    }

    /// Opens the store at `url`, reports `ready <save>` with the save it holds, then performs
    /// the next `count` saves of `scenario`, reporting `saving <save>` before each and
    /// `committed <save>` after it.
    private static func save(
        _ scenario: DurabilityScenario, at url: URL, count: Int, storeType: StoreType, options: StoreOptions
    ) throws {
        let coordinator = try PersistentStoreCoordinator(
            model: ConformanceModel.model, storeTypes: [storeType],
            valueTransformers: ConformanceModel.valueTransformers)
        let opened = CheckStack(
            coordinator: coordinator, store: try coordinator.addStore(type: storeType.name, at: url, options: options))
        var stack: CheckStack? = opened
        let first = DurabilityScenario.save(of: try DurableState(reading: opened.store)) + 1
        report("ready \(first - 1)")
        for index in first..<(first + count) {
            report("saving \(index)")
            switch scenario.step(index) {
            case .objects:
                let open =
                    try stack
                    ?? CheckStack(
                        coordinator: coordinator,
                        store: try coordinator.addStore(type: storeType.name, at: url, options: options))
                try scenario.performObjectSave(index, on: open)
                stack = open
            case .openMetadata:
                let open = try require(stack, "The metadata scenario keeps its store open.")
                try coordinator.setUserInfo(DurabilityScenario.userInfo(index), for: open.store)
            case .closedMetadata:
                if let open = stack {
                    try coordinator.remove(open.store)
                    stack = nil
                }
                var metadata = try require(
                    try coordinator.metadataForStore(type: storeType.name, at: url),
                    "The store at '\(argument(url))' has no metadata.")
                metadata.userInfo = DurabilityScenario.userInfo(index)
                try coordinator.setMetadata(metadata, forStoreOfType: storeType.name, at: url)
            }
            report("committed \(index)")
        }
    }

    /// Gives up root privileges (becoming `nobody`), makes sure the file at `url` cannot be
    /// read, then reads its metadata and opens it as ``BadFileProbe`` does, reporting
    /// `metadata <outcome>` and `open <outcome>`.
    private static func openWithoutPrivileges(_ url: URL, storeType: StoreType, options: StoreOptions) throws {
        try giveUpRootPrivileges()
        guard access(url.deletingLastPathComponent().path, X_OK) == 0 else {
            report("setup The folder '\(url.deletingLastPathComponent().path)' cannot be reached by user \(geteuid()).")
            return
        }
        guard access(url.path, R_OK) != 0 else {
            report("setup '\(url.path)' is still readable by user \(geteuid()).")
            return
        }
        let probe = BadFileProbe(storeType: storeType, options: options)
        report("metadata \(probe.readMetadata(at: url).line)")
        report("open \(probe.open(url).line)")
    }

    /// The user and group the worker becomes when it gives up root privileges.
    static let nobody: UInt32 = 65_534

    /// Becomes ``nobody`` when running as root, so that file permissions apply to the worker.
    static func giveUpRootPrivileges() throws {
        guard geteuid() == 0 else { return }
        guard setgroups(0, nil) == 0, setgid(nobody) == 0, setuid(nobody) == 0 else {
            throw CheckFailure("Could not give up root privileges: errno \(errno).")
        }
    }
}
