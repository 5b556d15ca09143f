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
    } catch let exit as ExitCode {
        throw exit
    } catch {
        let line = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
        FileHandle.standardError.write(Data("strata: \(line)\n".utf8))
        throw ExitCode.failure
    }
}
