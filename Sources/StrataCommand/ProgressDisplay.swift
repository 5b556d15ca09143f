import Foundation
import Strata

/// Shows a migration's progress on standard error: a bar redrawn in place on a terminal,
/// plain lines otherwise.
final class ProgressDisplay: Sendable {
    private static let width = 30
    private let isTerminal = isatty(FileHandle.standardError.fileDescriptor) != 0
    private let drewBar = Locked(false)
    /// What the plain lines say is done to the objects: "Copied", "Migrated".
    private let verb: String

    init(verb: String) { self.verb = verb }

    /// Shows `progress`.
    func show(_ progress: MigrationProgress) {
        let total = max(progress.totalObjects, 1)
        if isTerminal {
            let filled = Self.width * progress.completedObjects / total
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: Self.width - filled)
            write("\r[\(bar)] \(progress.completedObjects)/\(progress.totalObjects) objects")
            drewBar.withLock { $0 = true }
        } else {
            write("\(verb) \(progress.completedObjects) of \(progress.totalObjects) objects\n")
        }
    }

    /// Ends the bar's line, if one was drawn.
    func finish() {
        if drewBar.withLock({ $0 }) { write("\n") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
