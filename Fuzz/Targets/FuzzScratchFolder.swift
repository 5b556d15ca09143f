import Foundation

/// The folder a fuzzing process writes the inputs of file-reading targets to: in shared
/// memory where the system has it, removed when the process exits.
package enum FuzzScratchFolder {
    /// Creates the process's folder and arranges its removal at exit.
    package static func make() -> URL {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            fatalError("Could not create the fuzz scratch folder '\(folder.path)': \(error)")
        }
        atexit { try? FileManager.default.removeItem(at: FuzzScratchFolder.folder) }
        return folder
    }

    /// `strata-fuzz-<process ID>` in `/dev/shm`, or in the temporary folder without it.
    private static var folder: URL {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return URL(fileURLWithPath: base).appendingPathComponent("strata-fuzz-\(getpid())")
    }
}
