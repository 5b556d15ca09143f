import Foundation
import GRDB
import Strata

/// Peak memory, measured in a child process: the benchmark runs itself with the hidden `probe`
/// subcommand, which does one fetch after another and writes the time and the peak resident
/// size of each to a file. One child serves all the repetitions of one kind of probe: a
/// warm-up fetch, then before each measured fetch it returns freed memory to the system
/// (`malloc_trim`) and resets its peak to its current resident size (`5` written to
/// `/proc/self/clear_refs`), so each peak is that fetch's own.
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
        /// Every record through GRDB's record API, on the peer's database (SQLite's fetch-all).
        case grdb
    }

    /// The median time in milliseconds and the median peak resident size in bytes of
    /// `repetitions` fetches after a warm-up, probing `kind` for `store` on the folder `folder`
    /// in one child process.
    static func measure(store: String, kind: Kind, folder: URL, repetitions: Int) throws -> (Sample, Double) {
        let output = folder.appendingPathComponent("probe-\(kind.rawValue).txt")
        let figures = try runChild([
            "probe", store, kind.rawValue, folder.path, output.path, "--repetitions", String(repetitions), "--warm-up",
        ])
        return (Sample(figures.map(\.milliseconds)), Sample(figures.map(\.peak)).median)
    }

    /// Runs the benchmark itself with `arguments` in a child process and waits for it; returns
    /// the times and peaks its probe wrote to the file named by the fifth argument, one pair a
    /// measurement, or none when it is not a probe.
    @discardableResult
    static func runChild(_ subcommand: [String]) throws -> [(milliseconds: Double, peak: Double)] {
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
        guard subcommand.first == "probe", subcommand.count > 4 else { return [] }
        let text = try String(contentsOfFile: subcommand[4], encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let figures = line.split(separator: " ").compactMap { Double($0) }
            guard figures.count == 2 else { throw FloorError(description: "the memory probe wrote '\(text)'") }
            return (figures[0], figures[1])
        }
    }

    /// The child's side: runs the fetch of `kind` on the store of `store` in `folder` once
    /// unmeasured when `warmUp` is set, then `repetitions` times, and writes the time in
    /// milliseconds and the peak resident size of each to `output`, a line each.
    static func run(store: String, kind: Kind, folder: URL, output: URL, repetitions: Int, warmUp: Bool) throws {
        if warmUp { _ = try probe(store: store, kind: kind, folder: folder) }
        var lines = ""
        for _ in 0..<repetitions {
            returnFreedMemory()
            try resetPeakResidentSize()
            let elapsed = try probe(store: store, kind: kind, folder: folder)
            lines += "\(elapsed.milliseconds) \(try peakResidentBytes())\n"
        }
        try lines.write(to: output, atomically: true, encoding: .utf8)
    }

    /// One fetch of `kind`, timed.
    private static func probe(store: String, kind: Kind, folder: URL) throws -> Duration {
        let elapsed: Duration
        switch kind {
        case .materialised, .batched:
            let setup = StoreSetup.named(store)
            let model = try BenchModel.makeModel()
            // Timed as the fetch-all workload is: a new coordinator, the store added, the fetch.
            elapsed = try clock {
                let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StrataSubject.storeTypes)
                try coordinator.addStore(type: setup.type.name, at: try setup.url(in: folder))
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
        case .grdb:
            // Timed as the peer's fetch-all is: a new pool, then every record.
            elapsed = try clock {
                let pool = try DatabasePool(path: folder.appendingPathComponent(GRDBPeer.fileName).path)
                consume(try pool.read { try GRDBItem.fetchAll($0) })
            }
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
        return elapsed
    }

    /// Hands the memory `free` keeps for reuse back to the system (glibc's `malloc_trim`, which
    /// Swift's Glibc module does not declare).
    private static func returnFreedMemory() {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }

    /// Makes this process's peak resident size its current resident size.
    private static func resetPeakResidentSize() throws {
        guard let file = fopen("/proc/self/clear_refs", "w") else {
            throw FloorError(description: "cannot open /proc/self/clear_refs")
        }
        defer { fclose(file) }
        guard fputs("5", file) >= 0, fflush(file) == 0 else {
            throw FloorError(description: "cannot reset the peak resident size")
        }
    }

    /// This process's peak resident size in bytes (`VmHWM`, which Linux gives in kB).
    static func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { throw FloorError(description: "/proc/self/status has no VmHWM line") }
        return kilobytes * 1024
    }
}
