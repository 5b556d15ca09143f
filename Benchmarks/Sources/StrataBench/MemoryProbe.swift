import Foundation
import Strata

/// Peak memory, measured in a child process per measurement: the benchmark runs itself with
/// the hidden `probe` subcommand, which does one fetch and writes its time and its peak
/// resident size to a file.
///
/// The child reads its peak from `VmHWM` in `/proc/self/status`, which belongs to the address
/// space made by `exec`. `ru_maxrss` from `wait4` would not do: Linux carries it across
/// `execve`, and `posix_spawn` shares the parent's address space until then, so every child
/// would report at least the parent's own peak.
enum MemoryProbe {
    /// What a probe fetches.
    enum Kind: String, CaseIterable, Sendable {
        /// Every object, fully materialised, through the Strata store.
        case materialised
        /// Every object through the Strata store with a batch size of 500, reading each one.
        case batched
        /// Every item through the store's raw floor.
        case raw
        /// The store migrated to its conversion target (see ``ConversionMemory``).
        case convert
    }

    /// The median time in milliseconds and the median peak resident size in bytes of
    /// `repetitions` child processes probing `kind` for `store` on the folder `folder`.
    static func measure(store: String, kind: Kind, folder: URL, repetitions: Int) throws -> (Sample, Double) {
        var times: [Double] = []
        var peaks: [Double] = []
        for _ in 0..<repetitions {
            let (milliseconds, peak) = try spawn(store: store, kind: kind, folder: folder)
            times.append(milliseconds)
            peaks.append(peak)
        }
        return (Sample(times), Sample(peaks).median)
    }

    private static func spawn(store: String, kind: Kind, folder: URL) throws -> (Double, Double) {
        let output = folder.appendingPathComponent("probe-\(kind.rawValue).txt")
        return try runChild(["probe", store, kind.rawValue, folder.path, output.path])
    }

    /// Runs the benchmark itself with `arguments` in a child process and waits for it; returns
    /// the time and peak its probe wrote to the file named by the last argument, or zeros when
    /// it wrote none.
    @discardableResult
    static func runChild(_ subcommand: [String]) throws -> (Double, Double) {
        let arguments = ["strata-bench"] + subcommand
        let executable = "/proc/self/exe"
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, nil, nil, &argv, environ) == 0 else {
            throw FloorError(description: "cannot start a memory probe")
        }
        var status: Int32 = 0
        guard waitpid(pid, &status, 0) == pid, status == 0 else {
            throw FloorError(description: "the child '\(subcommand.joined(separator: " "))' failed (status \(status))")
        }
        guard subcommand.first == "probe", let path = subcommand.last else { return (0, 0) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let figures = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard figures.count == 2 else { throw FloorError(description: "the memory probe wrote '\(text)'") }
        return (figures[0], figures[1])
    }

    /// The child's side: runs the fetch of `kind` on the store of `store` in `folder`, and
    /// writes its time in milliseconds to `output`.
    static func run(store: String, kind: Kind, folder: URL, output: URL) throws {
        let elapsed: Duration
        switch kind {
        case .materialised, .batched:
            let setup = StoreSetup.named(store)
            let coordinator = try PersistentStoreCoordinator(
                model: try BenchModel.makeModel(), storeTypes: StrataSubject.storeTypes)
            elapsed = try clock {
                try coordinator.addStore(type: setup.type.name, at: folder.appendingPathComponent(setup.fileName))
                var request = FetchRequest<ManagedObject>(entityName: BenchModel.entity)
                request.returnsObjectsAsFaults = false
                if kind == .batched { request.fetchBatchSize = 500 }
                let context = ManagedObjectContext(coordinator: coordinator)
                consume(
                    try context.performAndWait {
                        try context.fetch(request).reduce(0) { $0 &+ (try BenchModel.touch($1)) }
                    })
            }
        case .raw:
            elapsed = try clock { try StoreSetup.readRaw(store: store, folder: folder) }
        case .convert:
            let setup = StoreSetup.named(store)
            let target = StoreSetup.named(setup.conversionTarget ?? "LMDB")
            let coordinator = try PersistentStoreCoordinator(
                model: try BenchModel.makeModel(), storeTypes: StrataSubject.storeTypes)
            elapsed = try clock {
                let source = try coordinator.addStore(
                    type: setup.type.name, at: folder.appendingPathComponent(setup.fileName))
                try coordinator.migratePersistentStore(
                    source, to: folder.appendingPathComponent("converted-" + target.fileName), type: target.type.name)
            }
        }
        try "\(elapsed.milliseconds) \(try peakResidentBytes())\n".write(to: output, atomically: true, encoding: .utf8)
    }

    /// This process's peak resident size in bytes (`VmHWM`, which Linux gives in kB).
    private static func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { throw FloorError(description: "/proc/self/status has no VmHWM line") }
        return kilobytes * 1024
    }
}
