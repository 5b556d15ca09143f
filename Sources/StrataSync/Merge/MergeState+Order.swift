extension MergeState {
    /// The latest placement of each member of `group`'s ordered relationships, by key: members
    /// named as the objects they show as, those deleted or not shown left out.
    func placements(of group: [GlobalID]) -> [String: [GlobalID: MergedObject.Placement]] {
        var latest: [String: [GlobalID: MergedObject.Placement]] = [:]
        for owner in group {
            for (key, placements) in objects[owner]?.placements ?? [:] {
                for (member, placement) in placements where !isDeleted(member) {
                    let shown = shownObject(member)
                    guard showsOrMayYet(shown),
                        latest[key]?[shown].map({ placement.supersedes($0) }) ?? true
                    else { continue }
                    latest[key, default: [:]][shown] = placement
                }
            }
        }
        return latest
    }

    /// The members `placements` places, in the order of their positions, then of their global IDs.
    static func order(of placements: [GlobalID: MergedObject.Placement]) -> [GlobalID] {
        placements.sorted { ($0.value.position, $0.key) < ($1.value.position, $1.key) }.map(\.key)
    }

    /// New positions that bring the members `placed` to show in `order`, a store's order of an
    /// ordered relationship, moving as few as it can: the longest run of members already in
    /// the order `placed` gives (by position, then global ID) stays, and the others get
    /// positions between their neighbours'. A store already showing that order gets none. When
    /// that would make a position longer than ``OrderPosition/respacingLength`` (many
    /// insertions at one place), every member gets a new position, spaced evenly — those placed
    /// that the store does not show included, where they were among the others.
    static func placements(
        bringing placed: [GlobalID: MergedObject.Placement], to order: [GlobalID]
    ) -> [(member: GlobalID, position: OrderPosition)] {
        let kept = longestIncreasingRun(order.map { member in placed[member].map { ($0.position, member) } })
        var moved: [(member: GlobalID, position: OrderPosition)] = []
        var run: [GlobalID] = []
        var lower: OrderPosition?
        for (index, member) in order.enumerated() {
            // A member kept at the position of the one before it stays unless others must go
            // between them.
            guard kept.contains(index), let position = placed[member]?.position,
                run.isEmpty || lower.map({ $0 < position }) ?? true
            else {
                run.append(member)
                continue
            }
            moved += zip(run, OrderPosition.positions(run.count, between: lower, and: position)).map { ($0, $1) }
            run = []
            lower = position
        }
        moved += zip(run, OrderPosition.positions(run.count, between: lower, and: nil)).map { ($0, $1) }
        guard moved.contains(where: { $0.position.text.utf8.count > OrderPosition.respacingLength }) else {
            return moved
        }
        let all = woven(order, into: Self.order(of: placed))
        return zip(all, OrderPosition.positions(all.count, between: nil, and: nil)).map { ($0, $1) }
    }

    /// `order`, with each member of `merged` it lacks before the first of `order`'s members that
    /// follows it in `merged` (at the end when none does).
    private static func woven(_ order: [GlobalID], into merged: [GlobalID]) -> [GlobalID] {
        let shown = Set(order)
        var before: [GlobalID: [GlobalID]] = [:]
        var pending: [GlobalID] = []
        for member in merged {
            if shown.contains(member) {
                if !pending.isEmpty { before[member, default: []] += pending }
                pending = []
            } else {
                pending.append(member)
            }
        }
        return order.flatMap { (before[$0] ?? []) + [$0] } + pending
    }

    /// The indices of a longest run of `places` that strictly increase, skipping `nil`s
    /// (patience sorting: the smallest last place of a run of each length, and each place's
    /// predecessor).
    private static func longestIncreasingRun(_ places: [(OrderPosition, GlobalID)?]) -> Set<Int> {
        var tails: [(index: Int, place: (OrderPosition, GlobalID))] = []
        var predecessor = [Int?](repeating: nil, count: places.count)
        for (index, place) in places.enumerated() {
            guard let place else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle].place < place { low = middle + 1 } else { high = middle }
            }
            predecessor[index] = low > 0 ? tails[low - 1].index : nil
            if low == tails.count { tails.append((index, place)) } else { tails[low] = (index, place) }
        }
        var run = Set<Int>()
        var next = tails.last?.index
        while let index = next {
            run.insert(index)
            next = predecessor[index]
        }
        return run
    }
}
