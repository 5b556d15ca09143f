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
        var ending = end(by: Date().addingTimeInterval(Self.longestRun))
        let timedOut = ending == nil
        if timedOut {
            kill()
            ending = end(by: .distantFuture)
        }
        let (signalled, status) = ending ?? (true, SIGKILL)
        var lines: [String] = []
        while let line = try? readLine(timeout: 10) { lines.append(line) }
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Ending(
            wasSignalled: signalled, timedOut: timedOut, status: status,
            remainingLines: lines, errorText: errorText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// How the worker ended, once it has before `deadline`: as Foundation saw it, or, when the
    /// worker has been a zombie for a second that Foundation still counts running (it misses a
    /// child's end while another child holds that child's descriptors), as reaped here.
    private func end(by deadline: Date) -> (signalled: Bool, status: Int32)? {
        let pid = process.processIdentifier
        var zombieSince: Date?
        var polls = 0
        while Date() < deadline {
            if !process.isRunning { return (process.terminationReason == .uncaughtSignal, process.terminationStatus) }
            polls += 1
            if polls % 100 == 0, Self.isZombie(pid) {
                let since = zombieSince ?? Date()
                zombieSince = since
                var status: Int32 = 0
                if since.timeIntervalSinceNow < -1, waitpid(pid, &status, WNOHANG) == pid {
                    let signal = status & 0x7f
                    return signal == 0 ? (false, (status >> 8) & 0xff) : (true, signal)
                }
            }
            usleep(1_000)
        }
        return nil
    }

    /// Whether process `pid` has ended and waits to be reaped, as Linux's `/proc` tells.
    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[close...].dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
