import Foundation
import Strata

/// A worker process of a soak, its standard output and error written to files beside the store.
final class SoakProcess {
    private let process = Process()
    private let outputURL: URL
    private let errorURL: URL
    private var termination: ProcessTermination?

    /// Starts `worker` with `arguments`, writing its output to `<store>.<name>.out` and
    /// `<store>.<name>.err`.
    init(worker: URL, arguments: [String], named name: String, outputBeside store: URL) throws {
        outputURL = store.appendingPathExtension("\(name).out")
        errorURL = store.appendingPathExtension("\(name).err")
        for url in [outputURL, errorURL] {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw StoreError(code: .io, message: "Could not create '\(url.path)'.")
            }
        }
        process.executableURL = worker
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// Kills the process (`SIGKILL`) if it still runs.
    func kill() {
        guard process.isRunning else { return }
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Whether the process ended by a signal (its status is then the signal's number).
    var endedBySignal: Bool { termination?.wasSignalled ?? false }

    /// Waits for the process to end; its status, lines of output and error text.
    func finish() -> (status: Int32, lines: [String], errors: String) {
        let termination = process.waitForTermination()
        self.termination = termination
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        return (termination.status, output.split(separator: "\n").map(String.init), errors)
    }
}
