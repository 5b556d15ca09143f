import Foundation

/// A running worker executable (see ``ConformanceWorker``) whose standard output is read line
/// by line.
final class WorkerProcess {
    /// How a worker ended.
    struct Ending {
        /// Whether it was killed by a signal rather than exiting.
        let wasSignalled: Bool
        /// Whether it was killed because it did not end in time.
        let timedOut: Bool
        /// The exit status, or the signal's number.
        let status: Int32
        /// The lines of standard output not read before it ended.
        let remainingLines: [String]
        /// What it wrote on standard error.
        let errorText: String

        /// The ending in a failure message.
        var summary: String {
            (timedOut
                ? "did not end within \(Int(WorkerProcess.longestRun)) s and was killed"
                : wasSignalled ? "was killed by signal \(status)" : "exited with status \(status)")
                + (errorText.isEmpty ? "" : ", writing: \(errorText.prefix(2_000))")
        }
    }

    /// How long a worker may run before ``finish()`` kills it, in seconds.
    static let longestRun: Double = 120

    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer = Data()
    private let executable: URL

    /// Starts `executable` with `arguments`.
    init(executable: URL, arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CheckFailure("There is no worker executable at '\(executable.path)'; build it before the tests run.")
        }
        self.executable = executable
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// The next line of standard output; `nil` when the worker closed it. Fails the check when
    /// no line comes within `timeout` seconds.
    func readLine(timeout: Double) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                kill()
                throw CheckFailure("The worker '\(executable.lastPathComponent)' wrote no line in \(Int(timeout)) s.")
            }
            var descriptor = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(min(remaining, 1) * 1_000)) > 0 else { continue }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty {
                guard !buffer.isEmpty else { return nil }
                buffer.append(UInt8(ascii: "\n"))
            }
            buffer.append(chunk)
        }
    }

    /// Kills the worker with `SIGKILL`: no handler runs, nothing is flushed.
    func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the worker to end (killing it after ``longestRun`` seconds) and collects what it wrote.
    func finish() -> Ending {
        let deadline = Date().addingTimeInterval(Self.longestRun)
        while process.isRunning && Date() < deadline { usleep(1_000) }
        let timedOut = process.isRunning
        if timedOut { kill() }
        process.waitUntilExit()
        var lines: [String] = []
        while let line = try? readLine(timeout: 10) { lines.append(line) }
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Ending(
            wasSignalled: process.terminationReason == .uncaughtSignal, timedOut: timedOut,
            status: process.terminationStatus,
            remainingLines: lines, errorText: errorText.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
