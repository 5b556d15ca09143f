import Foundation
import Strata

/// M: a process killed during saves leaves the store at some committed save; a save that
/// meets a full disk fails with an `io` error and leaves the store as it was.
///
/// Each check runs the store's worker (see ``ConformanceWorker``) again and again on one store;
/// every run reopens the store, performs saves of a ``DurabilityScenario`` and reports each one
/// as it returns, and is killed with `SIGKILL` after a seeded random delay. After every kill the
/// store is reopened here and must hold exactly the state after one save of the sequence: the
/// last one the worker reported, or the one it was performing.
enum DurabilityChecks {
    static var all: [ConformanceCheck] {
        [killDuringSaves, killDuringMetadataSaves, killDuringClosedMetadataWrites, fullDisk, readOnlyFolder]
    }

    private static let category = ConformanceCategory.durability

    static let killDuringSaves = category.check(
        "killDuringSaves",
        "A process killed at random points while saving inserts, updates and deletes leaves the store at a committed save.",
        requires: .workerExecutable
    ) { harness in
        try killRepeatedly(.objects, harness)
    }

    static let killDuringMetadataSaves = category.check(
        "killDuringMetadataSaves",
        "A process killed while mixing object saves and metadata-only saves leaves both from one committed save.",
        requires: .workerExecutable
    ) { harness in
        try killRepeatedly(.metadata, harness)
    }

    static let killDuringClosedMetadataWrites = category.check(
        "killDuringClosedMetadataWrites",
        "A process killed while writing a closed store's metadata leaves the last written metadata and every object.",
        requires: .workerExecutable
    ) { harness in
        try killRepeatedly(.closedMetadata, harness)
    }

    static let fullDisk = category.check(
        "fullDisk",
        "A save that meets a full disk fails with an io error, leaves the store as it was, and the store reopens "
            + "and saves again.",
        requires: .all([.fileStorage, .workerExecutable])
    ) { harness in
        let (lines, outcome) = try runFaultWorker("full", harness, meeting: "a full disk")
        try expect(
            outcome.hasPrefix("error io "),
            "A save of \(ConformanceWorker.fullDiskObjects) objects of \(ConformanceWorker.fullDiskValue.count) bytes "
                + "with the file size limited to the store's largest file should fail with a StoreError of code io, "
                + "but ended with '\(outcome)' (\(lines)).")
        try expectReopened(
            harness, holdingSave: ConformanceWorker.fullDiskSaves, "After the failed save", "a full disk")
    }

    static let readOnlyFolder = category.check(
        "readOnlyFolder",
        "A save after the store's folder was made read-only fails with an io error and leaves the store as it was, "
            + "or is kept whole; the store reopens and saves again.",
        requires: .all([.fileStorage, .workerExecutable])
    ) { harness in
        let (lines, outcome) = try runFaultWorker("readonly", harness, meeting: "a read-only folder")
        try expect(
            outcome == "saved" || outcome.hasPrefix("error io "),
            "A save in a read-only folder should succeed or fail with a StoreError of code io, but ended with "
                + "'\(outcome)'.")
        try expect(lines.contains("closed"), "Removing the store in a read-only folder failed: \(lines).")
        let saved = outcome == "saved"
        try expectReopened(
            harness, holdingSave: ConformanceWorker.fullDiskSaves + (saved ? 1 : 0),
            saved ? "After the save" : "After the failed save", "a read-only folder")
    }

    /// Runs the worker's fault `command` on the check's store, giving its folder write
    /// permission back afterwards, and returns the lines the worker wrote and the outcome of
    /// its save (`saved`, `error <code> <message>` or `other <error>`); `fault` names what the
    /// save meets in failures.
    private static func runFaultWorker(
        _ command: String, _ harness: CheckHarness, meeting fault: String
    ) throws -> (lines: [String], outcome: String) {
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        let worker = try require(harness.suite.workerExecutable, "The suite has no worker executable.")
        let ending: WorkerProcess.Ending
        do {
            defer { chmod(url.deletingLastPathComponent().path, 0o755) }
            ending = try WorkerProcess(executable: worker, arguments: [command, url.path]).finish()
        }
        try expect(!ending.wasSignalled && ending.status == 0, "Saving into \(fault), the worker \(ending.summary).")
        let lines = ending.remainingLines
        if let setup = lines.first(where: { $0.hasPrefix("setup ") }) {
            throw CheckFailure("The worker could not set up \(fault): \(setup.dropFirst("setup ".count))")
        }
        try expect(
            lines.contains("ready \(ConformanceWorker.fullDiskSaves)"),
            "The worker did not save the store before meeting \(fault): \(lines).")
        let outcome = try require(lines.first { $0.hasPrefix("save ") }, "The worker reported no save: \(lines).")
        return (lines, String(outcome.dropFirst("save ".count)))
    }

    /// Reopens the store, expects exactly the state after `save` of ``DurabilityScenario/objects``
    /// (`before` introduces a difference), saves another `Sample` and expects it after
    /// reopening again (`after` names the fault the store met, in that failure).
    private static func expectReopened(
        _ harness: CheckHarness, holdingSave save: Int, _ before: String, _ after: String
    ) throws {
        try harness.withStore { stack in
            let differences = try DurableState(reading: stack.store).differences(
                from: DurabilityScenario.objects.expectedState(after: save))
            try expect(
                differences.isEmpty,
                "\(before), the store is not as it should be: " + differences.joined(separator: "; ") + ".")
            _ = try stack.insert(ConformanceModel.sample, ["serial": 2_000])
            try stack.save()
        }
        try harness.withStore { stack in
            let serials = try stack.objects(ConformanceModel.sample).map { try stack.value($0, "serial") }
            try expect(serials.contains(2_000), "The save after \(after) was not kept: serials \(serials).")
        }
    }

    /// How many saves one worker run performs at most, so that a run the kill missed ends soon.
    private static let savesPerRun = 200

    /// The longest random delay between the worker's `ready` and the kill at first, in
    /// microseconds: ten times longer for saves of large values, each of which takes longer.
    /// It doubles after each run the kill ended before the worker's first save.
    private static func longestDelay(_ scenario: DurabilityScenario) -> UInt64 {
        scenario == .largeValues ? 300_000 : 30_000
    }

    /// Runs and kills the worker ``ConformanceSuite/durabilityKills`` times on one store,
    /// checking the store after each kill.
    static func killRepeatedly(_ scenario: DurabilityScenario, _ harness: CheckHarness) throws {
        let url = try require(harness.storeURL(), "Storage in memory has no store URL.")
        let worker = try require(harness.suite.workerExecutable, "The suite has no worker executable.")
        var held = 0
        var killedMidSave = 0
        var longest = longestDelay(scenario)
        let kills = harness.suite.durabilityKills
        // Runs whose kill missed every save (before the first, or after the last) are not
        // counted; they are retried, up to four times as many runs as kills.
        for kill in 1...(4 * kills) where killedMidSave < kills {
            let process = try WorkerProcess(
                executable: worker,
                arguments: ["save", scenario.rawValue, ConformanceWorker.argument(url), "\(savesPerRun)"])
            let ready = try process.readLine(timeout: 60)
            guard let ready, ready == "ready \(held)" else {
                process.kill()
                let ending = process.finish()
                throw CheckFailure(
                    "Run \(kill): the worker should report 'ready \(held)' (the store holds save \(held)), "
                        + "but wrote \(ready.map { "'\($0)'" } ?? "nothing") and \(ending.summary).")
            }
            usleep(UInt32(UInt64.random(in: 0...longest, using: &harness.random)))
            process.kill()
            let ending = process.finish()
            guard ending.wasSignalled || ending.status == 0 else {
                throw CheckFailure("Run \(kill): the worker \(ending.summary).")
            }
            if ending.wasSignalled, ending.remainingLines.last?.hasPrefix("saving ") == true { killedMidSave += 1 }
            if case .server(let locations) = harness.suite.storage,
                let awaitKilledClients = locations.awaitKilledClients
            {
                do { try awaitKilledClients(url) } catch {
                    throw CheckFailure("Run \(kill): the server did not finish the killed worker's work: \(error)")
                }
            }
            let committed =
                ending.remainingLines.compactMap { line in
                    line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
                }.max() ?? held
            // A run killed before its first save tested only the opening: on a machine slower
            // than the delay allows for, wait longer next time (up to a second).
            if committed == held { longest = min(longest * 2, 1_000_000) }
            held = try verify(scenario, harness, afterRun: kill, committed: committed)
        }
        try expect(
            killedMidSave == kills,
            "Only \(killedMidSave) of \(4 * kills) runs were killed inside a save, not \(kills): the kills came "
                + "before the first save or after the last.")
        try expect(held > 0, "The worker committed no save in \(4 * kills) runs.")
    }

    /// Reopens the store and checks that it holds exactly the state after a save no earlier
    /// than `committed`; returns that save.
    private static func verify(
        _ scenario: DurabilityScenario, _ harness: CheckHarness, afterRun run: Int, committed: Int
    ) throws -> Int {
        let state: DurableState
        do {
            state = try harness.withStore { stack in try DurableState(reading: stack.store) }
        } catch let failure as CheckFailure {
            throw CheckFailure("After kill \(run) (save \(committed) committed): \(failure.message)")
        } catch {
            throw CheckFailure(
                "After kill \(run) (save \(committed) committed), the store did not open: \(type(of: error)): \(error)."
            )
        }
        let held = DurabilityScenario.save(of: state)
        try expect(
            held >= committed,
            "After kill \(run), the store holds save \(held), but the worker had committed save \(committed).")
        let differences = state.differences(from: scenario.expectedState(after: held))
        try expect(
            differences.isEmpty,
            "After kill \(run) (save \(committed) committed), the store is not the state after save \(held) "
                + "(nor after any other save): " + differences.joined(separator: "; ") + ".")
        return held
    }
}
