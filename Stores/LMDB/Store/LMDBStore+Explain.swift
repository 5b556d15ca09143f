import Strata

extension LMDBStore: FetchExplaining {
    /// What ``execute(_:)`` reads for `request`: the root's records, or the ranges of the
    /// indexes its predicate can search (``LMDBIndexPlan``); the core then evaluates the whole
    /// predicate on the decoded candidates and sorts and pages them, unless a count needs no
    /// record at all.
    public func explain(_ request: StoreFetchRequest) throws -> StoreFetchExplanation {
        let (kinds, root, _) = try scope(of: request)
        let isCount = request.resultType == .count
        guard let predicate = request.predicate else {
            let step =
                isCount
                ? "Count the records of \(root) kept for \(kinds.joined(separator: ", ")), decoding none."
                : "Read every record of \(root) in primary-key order, keeping \(kinds.joined(separator: ", "))."
            return StoreFetchExplanation(steps: [step], sortsInMemory: !isCount)
        }
        guard let plan = LMDBIndexPlan(predicate, entities: kinds, indexes: indexes) else {
            return StoreFetchExplanation(
                steps: ["Read every record of \(root) in primary-key order, keeping \(kinds.joined(separator: ", "))."],
                evaluatedInMemory: predicate.conjuncts, sortsInMemory: true)
        }
        let properties = Set(plan.ranges.map(\.property)).sorted().map { "'\($0)'" }.joined(separator: ", ")
        let ranges = "\(plan.ranges.count) \(plan.ranges.count == 1 ? "range" : "ranges")"
        if isCount, plan.isExact {
            return StoreFetchExplanation(
                steps: ["Count the entries of the index of \(properties) in \(ranges), decoding no record."],
                sortsInMemory: false)
        }
        return StoreFetchExplanation(
            steps: [
                "Read the entries of the index of \(properties) in \(ranges).",
                "Decode the records of \(root) the entries name, keeping \(kinds.joined(separator: ", ")).",
            ],
            evaluatedInMemory: predicate.conjuncts, sortsInMemory: true)
    }
}
