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
    /// ordered relationship, moving as few as it can: the longest run of members already placed
    /// in increasing positions stays, and the others get positions between their neighbours'.
    /// When that would make a position longer than ``OrderPosition/respacingLength`` (many
    /// insertions at one place), every member gets a new position, spaced evenly.
    static func placements(
        bringing placed: [GlobalID: MergedObject.Placement], to order: [GlobalID]
    ) -> [(member: GlobalID, position: OrderPosition)] {
        let kept = longestIncreasingRun(order.map { placed[$0]?.position })
        var moved: [(member: GlobalID, position: OrderPosition)] = []
        var run: [GlobalID] = []
        var lower: OrderPosition?
        for (index, member) in order.enumerated() {
            guard kept.contains(index), let position = placed[member]?.position else {
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
        return zip(order, OrderPosition.positions(order.count, between: nil, and: nil)).map { ($0, $1) }
    }

    /// The indices of a longest run of `positions` that strictly increase, skipping `nil`s
    /// (patience sorting: the smallest last position of a run of each length, and each
    /// position's predecessor).
    private static func longestIncreasingRun(_ positions: [OrderPosition?]) -> Set<Int> {
        var tails: [(index: Int, position: OrderPosition)] = []
        var predecessor = [Int?](repeating: nil, count: positions.count)
        for (index, position) in positions.enumerated() {
            guard let position else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle].position < position { low = middle + 1 } else { high = middle }
            }
            predecessor[index] = low > 0 ? tails[low - 1].index : nil
            if low == tails.count { tails.append((index, position)) } else { tails[low] = (index, position) }
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
