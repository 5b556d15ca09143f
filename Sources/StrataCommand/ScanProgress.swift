import Foundation

/// A line on standard error counting the rows a long query has printed, redrawn in place; shown
/// only for a long result, when standard error is a terminal and standard output is not (rows
/// on the terminal show their own progress), so that piped output and logs stay clean.
final class ScanProgress {
    /// Results shorter than this print without a progress line.
    static let threshold = 10_000
    private let total: Int
    private let shows: Bool
    private var drawn = false

    init(total: Int) {
        self.total = total
        shows =
            total >= Self.threshold && isatty(FileHandle.standardError.fileDescriptor) != 0
            && isatty(FileHandle.standardOutput.fileDescriptor) == 0
    }

    /// Shows that `done` rows of the total are printed, every thousand rows.
    func show(_ done: Int) {
        guard shows, done.isMultiple(of: 1_000) else { return }
        write("\r\(done) of \(total) rows")
        drawn = true
    }

    /// Clears the line, if one was drawn.
    func finish() {
        if drawn { write("\r\u{1B}[K") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
