import Foundation
import StrataTestSupport

/// The built `strata` executable, run as a child process.
enum StrataProcess {
    /// What one run printed and how it ended.
    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `strata` with `arguments` and waits for it.
    static func run(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = BuiltProducts.executable("strata")
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        return Outcome(
            status: process.waitForTermination().status, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self))
    }
}
