import Foundation

/// The executables the package builds next to the test runner, such as conformance workers.
public enum BuiltProducts {
    /// The folder of the built products, which holds the test runner.
    public static var folder: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The built executable called `name`.
    public static func executable(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// Runs the built executable `name` with `arguments` to its end, its output discarded;
    /// returns its exit status.
    public static func run(_ name: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process.waitForTermination().status
    }

    /// Runs the built executable `name` with `arguments` to its end, with `environment` added
    /// to this process's, its standard output discarded; returns its exit status and what it
    /// wrote to standard error.
    public static func standardError(
        of name: String, _ arguments: [String], environment: [String: String]
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        return (process.waitForTermination().status, String(decoding: output, as: UTF8.self))
    }
}
