import Dispatch
import Foundation

/// SIGINT and SIGTERM caught instead of ending the process, so that a command running until
/// interrupted stops cleanly.
final class InterruptSignals {
    private let sources: [any DispatchSourceSignal]
    private let signals: AsyncStream<Void>

    /// Starts catching the signals.
    init() {
        let (signals, received) = AsyncStream.makeStream(of: Void.self)
        self.signals = signals
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { received.yield() }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// Returns when one of the signals arrives.
    func wait() async {
        for await _ in signals { return }
    }
}
