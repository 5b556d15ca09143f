/// The names among a list nearest to one that was not found, for messages that say what the
/// user may have meant.
struct ClosestNames {
    let candidates: [String]

    /// Up to three candidates within a few edits of `name` or starting with it (case ignored),
    /// nearest first.
    func nearest(to name: String) -> [String] {
        let lowered = name.lowercased()
        let target = Array(lowered)
        let allowed = max(2, target.count / 3)
        func distance(to candidate: String) -> Int {
            let other = candidate.lowercased()
            return target.count >= 2 && other.hasPrefix(lowered) ? 1 : Self.editDistance(target, Array(other))
        }
        return candidates.map { ($0, distance(to: $0)) }
            .filter { $0.1 <= allowed }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .prefix(3).map(\.0)
    }

    /// What to tell a user who named `name`, as a sentence: the nearest candidates ("did you
    /// mean 'a'?"), or the candidates there are, `kind` naming them ("the attributes are 'a', 'b'.").
    func suggestion(for name: String, kind: String) -> String {
        guard !candidates.isEmpty else { return "there are no \(kind)." }
        let near = nearest(to: name)
        if !near.isEmpty { return "did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "?" }
        let shown = candidates.sorted().prefix(12)
        return "the \(kind) are " + shown.map { "'\($0)'" }.joined(separator: ", ")
            + (candidates.count > shown.count ? ", …" : ".")
    }

    /// The Levenshtein distance between `a` and `b`: the fewest insertions, deletions and
    /// substitutions that turn one into the other.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
