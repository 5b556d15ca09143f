/// The writes a replica made to attributes and to-one relationships of entities that have a
/// resolver, kept until another replica's write supersedes them: what a resolver is shown of
/// them (``SyncConflict``). Each key keeps its successive writes, with what the key held before
/// each and where the hub logged it, so that a conflict shows the value before the first write
/// the other replica had not seen.
struct LocalWrites {
    private struct Write {
        /// What the key held before.
        let base: SyncValue?
        let value: SyncValue
        let stamp: SyncTimestamp
        /// Where the hub logged it, once acknowledged.
        var sequence: Int64?
    }

    /// Successive writes of each key of each object, oldest first.
    private var writes: [GlobalID: [String: [Write]]] = [:]
    private var keyCount = 0

    /// The most keys kept; past it, the keys first written longest ago are forgotten.
    static let keyLimit = 100_000
    /// The most successive writes kept of one key; past it, the oldest are forgotten.
    static let writesPerKey = 16

    var isEmpty: Bool { writes.isEmpty }

    /// Whether some write of `object`'s `key` is kept.
    func holds(_ object: GlobalID, _ key: String) -> Bool { writes[object]?[key] != nil }

    /// Keeps the write of `value` to `object`'s `key`, stamped `stamp`, which held `base`.
    mutating func note(_ value: SyncValue, to key: String, of object: GlobalID, base: SyncValue?, stamp: SyncTimestamp)
    {
        var history = writes[object]?[key] ?? []
        if history.isEmpty { keyCount += 1 }
        history.append(Write(base: base, value: value, stamp: stamp))
        if history.count > Self.writesPerKey { history.removeFirst(history.count - Self.writesPerKey) }
        writes[object, default: [:]][key] = history
        if keyCount > Self.keyLimit { forgetOldest() }
    }

    /// Notes that the hub logged the write of `object`'s `key` stamped `stamp` at `sequence`.
    mutating func acknowledge(_ key: String, of object: GlobalID, stamp: SyncTimestamp, sequence: Int64) {
        guard let index = writes[object]?[key]?.firstIndex(where: { $0.stamp == stamp }) else { return }
        writes[object]?[key]?[index].sequence = sequence
    }

    /// Forgets the writes of `object`, which is deleted.
    mutating func forget(_ object: GlobalID) {
        keyCount -= writes.removeValue(forKey: object)?.count ?? 0
    }

    /// The conflict of the writes of `object`'s `key` with `remote`, a write by a replica that
    /// had pulled the hub's log up to `seen` (`nil`: unknown), which superseded them; forgets
    /// them. `nil` when that replica had seen them all — and, when `seen` is unknown, when the
    /// hub had logged them all: only a write not yet in the log certainly went unseen.
    mutating func conflict(
        of key: String, of object: GlobalID, entity: String, with remote: SyncValue, seen: Int64?
    ) -> SyncConflict? {
        guard let history = writes[object]?.removeValue(forKey: key), let last = history.last else { return nil }
        keyCount -= 1
        if writes[object]?.isEmpty == true { writes[object] = nil }
        let unseen = history.first { write in
            guard let sequence = write.sequence else { return true }
            return seen.map { $0 < sequence } ?? false
        }
        guard let unseen else { return nil }
        return SyncConflict(
            object: object, entity: entity, key: key, base: unseen.base, local: last.value, remote: remote)
    }

    /// Forgets the tenth of the keys whose last write is oldest.
    private mutating func forgetOldest() {
        let byAge = writes.flatMap { object, keys in
            keys.compactMap { key, history in history.last.map { (object, key, $0.stamp) } }
        }.sorted { $0.2 < $1.2 }
        for (object, key, _) in byAge.prefix(Self.keyLimit / 10) {
            writes[object]?[key] = nil
            if writes[object]?.isEmpty == true { writes[object] = nil }
            keyCount -= 1
        }
    }
}
