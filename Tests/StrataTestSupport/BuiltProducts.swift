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
        process.waitUntilExit()
        return process.terminationStatus
    }
}
