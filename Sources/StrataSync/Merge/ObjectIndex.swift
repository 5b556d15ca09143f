/// Which objects hold which entries, both ways: the entries each object holds, and the objects
/// holding each entry. ``MergeState`` keeps the values of uniqueness constraints each object
/// holds, and the objects each object's required relationships name, in indexes of this kind.
struct ObjectIndex<Entry: Hashable & Sendable>: Sendable, Hashable {
    private var holders: [Entry: Set<GlobalID>] = [:]
    private var held: [GlobalID: [Entry]] = [:]

    /// Whether no object holds an entry.
    var isEmpty: Bool { held.isEmpty }

    /// The objects holding `entry`.
    func holders(of entry: Entry) -> Set<GlobalID> { holders[entry] ?? [] }

    /// The entries `object` holds.
    func entries(of object: GlobalID) -> [Entry] { held[object] ?? [] }

    /// Records that `object` holds `entries`, and no others.
    mutating func set(_ entries: [Entry], for object: GlobalID) {
        let previous = held[object] ?? []
        guard previous != entries else { return }
        for entry in previous {
            holders[entry]?.remove(object)
            if holders[entry]?.isEmpty == true { holders[entry] = nil }
        }
        for entry in entries { holders[entry, default: []].insert(object) }
        held[object] = entries.isEmpty ? nil : entries
    }
}
