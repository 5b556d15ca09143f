/// Everything the operations applied so far say about one synced object: each attribute's and
/// to-one relationship's latest write, each to-many relationship's additions and removals, the
/// latest placement of each member of its ordered relationships, and its latest deletion. Merging is taking the later write, the union of tags and the later
/// deletion, so the result does not depend on the order operations arrive in, nor on how often.
public struct MergedObject: Sendable, Hashable, Codable {
    /// A value and the timestamp of the write that set it.
    public struct Register: Sendable, Hashable, Codable {
        /// The value.
        public let value: SyncValue
        /// When it was written, and by which replica.
        public let stamp: SyncTimestamp

        /// Whether this write wins over `other`: it is stamped later, or at the same time
        /// with a value that sorts after (so that every replica picks the same).
        func supersedes(_ other: Register) -> Bool {
            stamp > other.stamp || (stamp == other.stamp && other.value.canonicallyPrecedes(value))
        }
    }

    /// A member's position in an ordered relationship and the timestamp of the placement.
    public struct Placement: Sendable, Hashable, Codable {
        /// The position.
        public let position: OrderPosition
        /// When it was placed, and by which replica.
        public let stamp: SyncTimestamp

        /// Whether this placement wins over `other`: it is stamped later, or at the same time
        /// at a later position.
        func supersedes(_ other: Placement) -> Bool {
            stamp > other.stamp || (stamp == other.stamp && other.position < position)
        }
    }

    /// The object's entity.
    public let entity: String
    /// The latest write of each attribute and to-one relationship, by name.
    public private(set) var registers: [String: Register] = [:]
    /// The members of each to-many relationship, by name.
    public private(set) var relationships: [String: ObservedRemoveSet] = [:]
    /// The latest placement of each member of each ordered relationship, by name and member.
    public private(set) var placements: [String: [GlobalID: Placement]] = [:]
    /// The latest deletion, if any.
    public private(set) var deletion: SyncTimestamp?
    /// The latest write of any kind but a deletion.
    public private(set) var lastWrite: SyncTimestamp?
    /// The earliest insertion, if one arrived.
    public private(set) var insertion: SyncTimestamp?

    init(entity: String) { self.entity = entity }

    /// An object with these fields, as kept.
    init(
        entity: String, registers: [String: Register], relationships: [String: ObservedRemoveSet],
        placements: [String: [GlobalID: Placement]], deletion: SyncTimestamp?, lastWrite: SyncTimestamp?,
        insertion: SyncTimestamp?
    ) {
        self.entity = entity
        self.registers = registers
        self.relationships = relationships
        self.placements = placements
        self.deletion = deletion
        self.lastWrite = lastWrite
        self.insertion = insertion
    }

    private enum CodingKeys: String, CodingKey {
        case entity, registers, relationships, placements, deletion, lastWrite, insertion
    }

    /// The object `decoder` holds; one kept before there were placements has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entity = try container.decode(String.self, forKey: .entity)
        registers = try container.decode([String: Register].self, forKey: .registers)
        relationships = try container.decode([String: ObservedRemoveSet].self, forKey: .relationships)
        placements = try container.decodeIfPresent([String: [GlobalID: Placement]].self, forKey: .placements) ?? [:]
        deletion = try container.decodeIfPresent(SyncTimestamp.self, forKey: .deletion)
        lastWrite = try container.decodeIfPresent(SyncTimestamp.self, forKey: .lastWrite)
        insertion = try container.decodeIfPresent(SyncTimestamp.self, forKey: .insertion)
    }

    /// Encodes every field, leaving out placements when there are none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entity, forKey: .entity)
        try container.encode(registers, forKey: .registers)
        try container.encode(relationships, forKey: .relationships)
        if !placements.isEmpty { try container.encode(placements, forKey: .placements) }
        try container.encodeIfPresent(deletion, forKey: .deletion)
        try container.encodeIfPresent(lastWrite, forKey: .lastWrite)
        try container.encodeIfPresent(insertion, forKey: .insertion)
    }

    /// Whether the object exists under `rule`.
    public func isAlive(under rule: MergeRules.DeleteRule) -> Bool {
        guard let deletion else { return true }
        switch rule {
        case .deleteWins: return false
        case .updateWins: return lastWrite.map { $0 > deletion } ?? false
        }
    }

    /// Applies `operation`, which names this object, and says what became of it.
    mutating func apply(_ operation: SyncOperation) -> MergeOutcome {
        let stamp = operation.stamp
        switch operation.change {
        case .insert:
            let wrote = noteWrite(stamp)
            if let insertion, insertion <= stamp { return wrote ? .applied : .duplicate }
            insertion = stamp
            return .applied
        case .set(let key, let value):
            noteWrite(stamp)
            let written = Register(value: value, stamp: stamp)
            if let current = registers[key] {
                if current == written { return .duplicate }
                guard written.supersedes(current) else { return .superseded(by: current.stamp) }
            }
            registers[key] = written
            return .applied
        case .add(let key, let member):
            noteWrite(stamp)
            let before = relationships[key]
            relationships[key, default: ObservedRemoveSet()].add(member, tag: stamp)
            return relationships[key] == before ? .duplicate : .applied
        case .remove(let key, let member, let observed):
            noteWrite(stamp)
            let before = relationships[key]
            relationships[key, default: ObservedRemoveSet()].remove(member, observed: observed)
            return relationships[key] == before ? .duplicate : .applied
        case .place(let key, let member, let position):
            noteWrite(stamp)
            let placed = Placement(position: position, stamp: stamp)
            if let current = placements[key]?[member] {
                if current == placed { return .duplicate }
                guard placed.supersedes(current) else { return .superseded(by: current.stamp) }
            }
            placements[key, default: [:]][member] = placed
            return .applied
        case .delete:
            if let deletion {
                if deletion == stamp { return .duplicate }
                guard stamp > deletion else { return .superseded(by: deletion) }
            }
            deletion = stamp
            return .applied
        }
    }

    /// Forgets everything but the entity and the deletion: what an object deleted under
    /// ``MergeRules/DeleteRule/deleteWins`` keeps, which no later write can bring back.
    mutating func dropAllButDeletion() {
        registers = [:]
        relationships = [:]
        placements = [:]
        lastWrite = nil
        insertion = nil
    }

    /// Notes a write stamped `stamp`; returns whether it is the latest.
    @discardableResult
    private mutating func noteWrite(_ stamp: SyncTimestamp) -> Bool {
        guard lastWrite.map({ stamp > $0 }) ?? true else { return false }
        lastWrite = stamp
        return true
    }
}
