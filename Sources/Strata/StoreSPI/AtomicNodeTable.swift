/// The nodes an ``AtomicStoreAdapter`` keeps: found by object ID, and kept in storage order
/// (by entity name, then by reference), so that fetches and writes list them without sorting.
///
/// Each entity has a section: its nodes in storage order, with an empty place where one was
/// deleted. A section is rebuilt, sorted and without empty places, when a node arrives out of
/// order or empty places outnumber nodes.
struct AtomicNodeTable: Sendable {
    private struct Position: Sendable {
        let section: Int
        var index: Int
    }

    private struct Section: Sendable {
        var nodes: [StoreNode?] = []
        var count = 0
        var isSorted = true
        /// The ID of the node added last.
        var lastID: ObjectID?

        var needsTidying: Bool { !isSorted || 2 * count < nodes.count }
    }

    private var sections: [Section] = []
    private var sectionNumbers: [String: Int] = [:]
    private var positions: [ObjectID: Position] = [:]

    /// A table of `nodes`; of two nodes with one ID, the later is kept.
    init(_ nodes: [StoreNode] = []) {
        positions.reserveCapacity(nodes.count)
        apply(inserted: nodes, updated: [], deleted: [])
    }

    /// The node of `objectID`, if the table has it.
    subscript(objectID: ObjectID) -> StoreNode? {
        guard let position = positions[objectID] else { return nil }
        return sections[position.section].nodes[position.index]
    }

    /// The snapshot of the node of `objectID`, if the table has it, read in place.
    func snapshot(of objectID: ObjectID) -> Snapshot? {
        guard let position = positions[objectID] else { return nil }
        return sections[position.section].nodes[position.index]?.snapshot
    }

    /// How many nodes the entities named `entityNames` have.
    func count(ofEntities entityNames: some Sequence<String>) -> Int {
        entityNames.reduce(0) { total, name in total + (sectionNumbers[name].map { sections[$0].count } ?? 0) }
    }

    /// The nodes of the entities named `entityNames`, in storage order.
    func nodes(ofEntities entityNames: some Sequence<String>) -> [StoreNode] {
        list(ofEntities: entityNames) { $0 }
    }

    /// The snapshots of the nodes of the entities named `entityNames`, in storage order.
    func snapshots(ofEntities entityNames: some Sequence<String>) -> [Snapshot] {
        list(ofEntities: entityNames) { $0.snapshot }
    }

    private func list<Item>(ofEntities entityNames: some Sequence<String>, _ item: (StoreNode) -> Item) -> [Item] {
        var listed: [Item] = []
        listed.reserveCapacity(count(ofEntities: entityNames))
        for name in Set(entityNames).sorted() {
            guard let number = sectionNumbers[name] else { continue }
            for case let node? in sections[number].nodes { listed.append(item(node)) }
        }
        return listed
    }

    /// Every node, in storage order.
    var allNodes: [StoreNode] { nodes(ofEntities: sectionNumbers.keys) }

    /// Adds `inserted`, replaces the nodes `updated` has new versions of, and removes `deleted`.
    mutating func apply(inserted: [StoreNode], updated: [StoreNode], deleted: [ObjectID]) {
        var touched: Set<Int> = []
        for node in [inserted, updated].joined() { touched.insert(put(node)) }
        for id in deleted {
            guard let position = positions.removeValue(forKey: id) else { continue }
            sections[position.section].nodes[position.index] = nil
            sections[position.section].count -= 1
            touched.insert(position.section)
        }
        for number in touched where sections[number].needsTidying { tidy(number) }
    }

    /// Puts `node` in place of the node with its ID, or after its entity's others; returns
    /// the number of its section.
    private mutating func put(_ node: StoreNode) -> Int {
        let id = node.snapshot.objectID
        if let position = positions[id] {
            sections[position.section].nodes[position.index] = node
            return position.section
        }
        let number = sectionNumber(of: id.entityName)
        if sections[number].isSorted, let lastID = sections[number].lastID {
            sections[number].isSorted = Self.precedes(lastID, id)
        }
        positions[id] = Position(section: number, index: sections[number].nodes.count)
        sections[number].nodes.append(node)
        sections[number].count += 1
        sections[number].lastID = id
        return number
    }

    private mutating func sectionNumber(of entityName: String) -> Int {
        if let number = sectionNumbers[entityName] { return number }
        sections.append(Section())
        sectionNumbers[entityName] = sections.count - 1
        return sections.count - 1
    }

    /// Sorts and compacts section `number`, and moves its positions accordingly.
    private mutating func tidy(_ number: Int) {
        var kept = sections[number].nodes.compactMap { $0 }
        if !sections[number].isSorted {
            kept.sort { Self.precedes($0.snapshot.objectID, $1.snapshot.objectID) }
        }
        for (index, node) in kept.enumerated() { positions[node.snapshot.objectID]?.index = index }
        sections[number] = Section(nodes: kept, count: kept.count, lastID: kept.last?.snapshot.objectID)
    }

    /// Storage order within one entity: by reference, integers by value.
    static func precedes(_ a: ObjectID, _ b: ObjectID) -> Bool {
        switch (a.reference, b.reference) {
        case (.integer(let x), .integer(let y)): x < y
        default: a.uriString < b.uriString
        }
    }
}
