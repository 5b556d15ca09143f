import Foundation

/// How a child process ended.
public struct ProcessTermination: Sendable, Equatable {
    /// The exit status, or the signal's number.
    public var status: Int32
    /// Whether a signal ended it.
    public var wasSignalled: Bool
}

extension Process {
    /// Waits for the process to end and tells how.
    ///
    /// Foundation learns of a child's end through a socket its run loop watches, and in a test
    /// process holding hundreds of descriptors that notice can go missing: `waitUntilExit()`
    /// then waits forever and `isRunning` stays true. So a child that ended and waits to be
    /// reaped, which Foundation still counts running, is reaped here instead.
    public func waitForTermination() -> ProcessTermination {
        while true {
            if let termination = terminationIfEnded() { return termination }
            usleep(5_000)
        }
    }

    /// ``waitForTermination()`` without holding a thread while the process runs.
    public func termination() async -> ProcessTermination {
        while true {
            if let termination = terminationIfEnded() { return termination }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// How the process ended, as Foundation saw it or as reaped now; `nil` while it runs. A
    /// process reaped here is Foundation's no more: keep the first answer.
    public func terminationIfEnded() -> ProcessTermination? {
        if !isRunning {
            return ProcessTermination(status: terminationStatus, wasSignalled: terminationReason == .uncaughtSignal)
        }
        var status: Int32 = 0
        guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return nil }
        let signal = status & 0x7f
        return signal == 0
            ? ProcessTermination(status: (status >> 8) & 0xff, wasSignalled: false)
            : ProcessTermination(status: signal, wasSignalled: true)
    }
}
