import Logging

/// The parts of one model file that Strata does not use, collected while reading so that each
/// kind is logged once, at `.debug`, with where it first appeared and how often.
///
/// Model files carry much that matters only to Xcode (`syncable`, `codeGenerationType`,
/// `usesScalarValueType`, the diagram `<elements>`, …); logging every occurrence would drown
/// a debug log.
struct IgnoredItems {
    private var firstLines: [String: Int] = [:]
    private var counts: [String: Int] = [:]
    private var order: [String] = []

    /// Records one ignored item, such as `entity@syncable` or `<elements>`.
    mutating func note(_ item: String, line: Int) {
        if counts[item] == nil {
            order.append(item)
            firstLines[item] = line
        }
        counts[item, default: 0] += 1
    }

    /// Logs each kind of ignored item once at `.debug`.
    func log(to logger: Logger, path: String) {
        for item in order {
            logger.debug(
                "Ignored \(item): not used by Strata.",
                metadata: [
                    "file": "\(path)", "line": "\(firstLines[item]!)", "occurrences": "\(counts[item]!)",
                ])
        }
    }
}
