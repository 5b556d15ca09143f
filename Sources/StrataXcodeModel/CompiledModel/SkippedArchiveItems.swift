import Logging

/// The parts of one compiled model that Strata does not use, collected while reading so that
/// each kind is logged once, at `.debug`, with the archived object where it first appeared and
/// how often it appeared.
///
/// Compiled models carry much that Strata has no use for (the value class name of every
/// attribute, compiler versions, fetch options, …); logging every occurrence would drown a debug
/// log. The counterpart of ``IgnoredItems`` for model files.
struct SkippedArchiveItems {
    private var firstPlaces: [String: String] = [:]
    private var counts: [String: Int] = [:]
    private var order: [String] = []

    /// Records one field that Strata does not read: the field `key` of an object of the class
    /// `className`, found at `place` (such as `object 16`).
    mutating func ignore(field key: String, of className: String, at place: String) {
        record("Ignored the field \(key) of \(className): not used by Strata.", at: place)
    }

    /// Records one part of the model that was left out, such as a fetched property, and why.
    mutating func skip(_ part: String, because reason: String, at place: String) {
        record("Skipped \(part): \(reason)", at: place)
    }

    /// Logs each recorded message once at `.debug`, with `file`, the first place it applied to,
    /// and the number of occurrences.
    func log(to logger: Logger, file: String) {
        for message in order {
            logger.debug(
                "\(message)",
                metadata: [
                    "file": "\(file)", "object": "\(firstPlaces[message] ?? "")",
                    "occurrences": "\(counts[message] ?? 0)",
                ])
        }
    }

    /// Counts `message`, remembering `place` the first time.
    private mutating func record(_ message: String, at place: String) {
        if counts[message] == nil {
            order.append(message)
            firstPlaces[message] = place
        }
        counts[message, default: 0] += 1
    }
}
