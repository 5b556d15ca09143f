import ArgumentParser
import Foundation

/// Why a command stopped, said in one line.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs a command's work; any error is written to standard error as one line starting with
/// `strata:`, and the command exits with status 1.
func reportingFailure(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        throw reported(error)
    }
}

/// Runs a command's asynchronous work, reporting an error as the other form does.
func reportingFailureAsync(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        throw reported(error)
    }
}

/// `error` written to standard error as one line, and the exit it makes.
private func reported(_ error: any Error) -> any Error {
    if let exit = error as? ExitCode { return exit }
    let line = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    FileHandle.standardError.write(Data("strata: \(line)\n".utf8))
    return ExitCode.failure
}
