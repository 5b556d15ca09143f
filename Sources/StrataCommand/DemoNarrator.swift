import Foundation

/// Prints the demo's story: one numbered line per step with what it did and how long it took.
struct DemoNarrator {
    private var step = 0

    /// Runs `body`, then prints its title, the sentence it returns and its duration.
    mutating func step(_ title: String, _ body: () throws -> String) throws {
        step += 1
        let clock = ContinuousClock()
        var sentence = ""
        let duration = try clock.measure { sentence = try body() }
        let milliseconds = Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000
        print("\(step). \(title): \(sentence) (\(String(format: "%.1f", milliseconds)) ms)")
    }
}
