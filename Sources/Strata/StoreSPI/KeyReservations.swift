/// Primary keys a store has reserved in its file but not handed out yet, by root entity.
///
/// A store that hands out keys from a counter in its file raises the counter in a write that
/// survives a crash. Raising it for each save's new objects costs a second commit (and, on a
/// disk, a second flush) for every save. Instead the store raises it by a block and hands out
/// the block's keys from memory. Blocks start at the number of keys asked for, so a store that
/// hands out keys once leaves no gap. Each later block doubles the last, up to
/// ``largestBlock``. Keys a close or a crash leaves unused are skipped, never handed out again:
/// the counter in the file is already past them.
package struct KeyReservations: Sendable {
    /// The most keys one reservation takes beyond those asked for.
    package static let largestBlock: Int64 = 1_024

    /// The keys reserved and not handed out, by root entity: the first and how many follow
    /// it (the last may be `Int64.max`, so no bound past it is ever computed).
    private var free: [String: (first: Int64, count: Int64)] = [:]
    /// The size of the last block reserved, by root entity.
    private var lastBlock: [String: Int64] = [:]

    package init() {}

    /// Hands out `count` keys of `root` from the reserved ones, returning the first (the
    /// others follow it); `nil`, handing out nothing, when fewer are left.
    package mutating func take(_ count: Int64, of root: String) -> Int64? {
        guard let keys = free[root], keys.count >= count else { return nil }
        free[root] = (keys.first &+ count, keys.count - count)
        return keys.first
    }

    /// How many keys of `root` to reserve to hand out `count` now: `count`, or twice the last
    /// block up to ``largestBlock`` when that is more.
    package func blockSize(toHandOut count: Int64, of root: String) -> Int64 {
        max(count, min((lastBlock[root] ?? 0) * 2, Self.largestBlock))
    }

    /// How many keys a store reserves past its counter's `value` for a block of `block`:
    /// `block`, or only `minimum` (the keys asked for now) when the block would pass
    /// `Int64.max`, so that the last keys a counter can count are still handed out.
    package static func reservable(_ block: Int64, orAtLeast minimum: Int64, past value: Int64) -> Int64 {
        Int64.max - max(value, 0) >= block ? block : minimum
    }

    /// Records that the counter of `root` was raised past the `block` keys from `first`, and
    /// hands out the first `count` of them (returning `first`). Keys reserved before and not
    /// handed out are given up.
    package mutating func reserve(_ block: Int64, from first: Int64, of root: String, handingOut count: Int64)
        -> Int64
    {
        lastBlock[root] = block
        free[root] = (first &+ count, block - count)
        return first
    }

    /// Gives up the reserved keys of `root` up to `key`, which a save inserted without this
    /// store handing it out (a save completed from a save log, a migration keeping its source's
    /// numbers): no key at or before it is handed out afterwards.
    package mutating func skip(past key: Int64, of root: String) {
        guard let keys = free[root], key >= keys.first else { return }
        let (offset, overflow) = key.subtractingReportingOverflow(keys.first)
        free[root] = !overflow && offset < keys.count ? (key &+ 1, keys.count - offset - 1) : nil
    }

    /// Gives up every reserved key: what a store does when it closes, as its file may be
    /// replaced before it opens again.
    package mutating func removeAll() {
        free.removeAll()
    }
}

extension Locked where Value == KeyReservations {
    /// IDs with integer references, one for each namespace of `namespaces` (whose root
    /// entities `roots` gives, in the same order): from the keys reserved, and from blocks
    /// that `reserve` reserves in the store's file, in one write, for the roots short of keys.
    /// `reserve` gets the size of each root's block and the fewest keys it may reserve instead
    /// when the block would pass the counter's limit, and returns each root's first reserved key
    /// and how many it reserved.
    package func handOut(
        _ namespaces: [ObjectID.Namespace], roots: [String],
        reserving reserve: (_ blocks: [String: Int64], _ minimums: [String: Int64]) throws -> [String: (
            first: Int64, block: Int64
        )]
    ) throws -> [ObjectID] {
        var counts: [String: Int64] = [:]
        for root in roots { counts[root, default: 0] += 1 }
        var firstKeys: [String: Int64] = [:]
        var blocks: [String: Int64] = [:]
        withLock { reserved in
            for (root, count) in counts {
                if let first = reserved.take(count, of: root) {
                    firstKeys[root] = first
                } else {
                    blocks[root] = reserved.blockSize(toHandOut: count, of: root)
                }
            }
        }
        if !blocks.isEmpty {
            let raised = try reserve(blocks, counts)
            withLock { reserved in
                for (root, keys) in raised {
                    firstKeys[root] = reserved.reserve(
                        keys.block, from: keys.first, of: root, handingOut: counts[root] ?? 0)
                }
            }
        }
        return zip(namespaces, roots).map { namespace, root in
            let key = firstKeys[root, default: 1]
            // Keys run up to the last one reserved; only the last can wrap, unused.
            firstKeys[root] = key &+ 1
            return ObjectID(namespace, reference: .integer(key))
        }
    }
}
