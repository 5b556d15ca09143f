import Foundation
import Strata
import StrataConformance
import StrataSync
import Testing

/// Replicas making random changes with their own clocks and exchanging operations through a
/// hub at random moments, in random order and with repeated pushes, end in the same state as
/// the hub and as an oracle that applies every operation in another random order.
@Suite struct ConvergenceTests {
    struct Replica {
        let id: ReplicaID
        let wall: TestWallClock
        var clock: HybridLogicalClock
        var state: MergeState
        var log: [SyncOperation] = []
        var pushed = 0
        var pulled = 0

        init(_ id: ReplicaID, start: Int64, rules: MergeRules) {
            self.id = id
            wall = TestWallClock(start)
            clock = HybridLogicalClock(replica: id, wallClock: { [wall] in wall.read() })
            state = MergeState(rules: rules)
        }

        /// Stamps and applies a local change.
        mutating func make(_ change: SyncOperation.Change, on object: GlobalID) throws {
            let operation = SyncOperation(object: object, entity: "Item", stamp: try clock.tick(), change: change)
            try state.apply(operation)
            log.append(operation)
        }
    }

    struct Hub {
        var state: MergeState
        var log: [SyncOperation] = []
        var known: Set<SyncOperation> = []

        /// Takes in a push; an operation pushed again is not logged twice.
        mutating func push(_ operations: some Sequence<SyncOperation>) throws {
            for operation in operations where known.insert(operation).inserted {
                try state.apply(operation)
                log.append(operation)
            }
        }
    }

    /// Runs `steps` random steps of `replicaCount` replicas with `seed`; returns the replicas'
    /// and the hub's resolved states and the oracle's, after a last full exchange.
    static func simulate(
        seed: UInt64, replicaCount: Int, steps: Int, rules: MergeRules
    ) throws -> (
        replicas: [[GlobalID: ResolvedObject]], hub: [GlobalID: ResolvedObject], oracle: [GlobalID: ResolvedObject],
        hubState: MergeState
    ) {
        var random = SeededGenerator(seed: seed)
        var replicas = (0..<replicaCount).map { index in
            Replica(.random(using: &random), start: 1_000 + Int64(index) * 7, rules: rules)
        }
        var hub = Hub(state: MergeState(rules: rules))
        func sync(_ index: Int, repeatingPush: Bool) throws {
            let start = repeatingPush ? max(0, replicas[index].pushed - 3) : replicas[index].pushed
            try hub.push(replicas[index].log[start...])
            replicas[index].pushed = replicas[index].log.count
            let incoming = hub.log[replicas[index].pulled...].filter { $0.stamp.replica != replicas[index].id }
            for operation in incoming {
                try replicas[index].clock.receive(operation.stamp)
                try replicas[index].state.apply(operation)
            }
            replicas[index].pulled = hub.log.count
        }
        for _ in 0..<steps {
            let index = Int.random(in: 0..<replicaCount, using: &random)
            replicas[index].wall.move(by: Int64.random(in: -2...4, using: &random))
            let alive = replicas[index].state.objects.keys.filter(replicas[index].state.isAlive).sorted()
            let roll = Int.random(in: 0..<100, using: &random)
            guard roll >= 15, let target = alive.randomElement(using: &random) else {
                let object = GlobalID.random(using: &random)
                try replicas[index].make(.insert, on: object)
                try replicas[index].make(.set(key: "name", value: .attribute(.string("n\(object)"))), on: object)
                try replicas[index].make(.set(key: "score", value: .attribute(.integer64(0))), on: object)
                if let parent = alive.randomElement(using: &random) {
                    try replicas[index].make(.set(key: "parent", value: .reference(parent)), on: object)
                }
                continue
            }
            switch roll {
            case 15..<40:
                let value = Int64.random(in: 0..<1_000, using: &random)
                try replicas[index].make(.set(key: "score", value: .attribute(.integer64(value))), on: target)
            case 40..<50:
                let parent = Bool.random(using: &random) ? alive.randomElement(using: &random) : nil
                try replicas[index].make(.set(key: "parent", value: .reference(parent)), on: target)
            case 50..<65:
                guard let member = alive.randomElement(using: &random) else { continue }
                try replicas[index].make(.add(key: "tags", member: member), on: target)
            case 65..<75:
                let members = replicas[index].state.resolved(target)?.relationships["tags"] ?? []
                guard let member = members.sorted().randomElement(using: &random) else { continue }
                let observed = replicas[index].state.objects[target]?.relationships["tags"]?.liveTags(of: member) ?? []
                try replicas[index].make(
                    .remove(key: "tags", member: member, observed: observed.sorted()), on: target)
            case 75..<80:
                try replicas[index].make(.delete, on: target)
            default:
                try sync(index, repeatingPush: Bool.random(using: &random))
            }
        }
        for _ in 0..<2 {
            for index in replicas.indices { try sync(index, repeatingPush: false) }
        }
        var oracle = MergeState(rules: rules)
        let everything = replicas.flatMap(\.log)
        for operation in (everything + everything).shuffled(using: &random) { try oracle.apply(operation) }
        return (
            replicas.map { $0.state.resolvedObjects() }, hub.state.resolvedObjects(), oracle.resolvedObjects(),
            hub.state
        )
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func replicasConvergeOnTheHubsStateAndTheOracles(seed: UInt64) throws {
        for rules in [MergeRules(), MergeRules(defaultDeleteRule: .updateWins)] {
            let result = try Self.simulate(seed: seed, replicaCount: 3, steps: 2_000, rules: rules)
            #expect(Self.differences(result.hub, result.oracle) == [], "the hub differs from the oracle (seed \(seed))")
            #expect(result.hub.count > 10)
            for (index, replica) in result.replicas.enumerated() {
                #expect(
                    Self.differences(replica, result.hub) == [], "replica \(index) differs from the hub (seed \(seed))")
            }
        }
    }

    /// The objects (at most three) on which two resolved states differ, sorted.
    static func differences(_ a: [GlobalID: ResolvedObject], _ b: [GlobalID: ResolvedObject]) -> [GlobalID] {
        Array(Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted().prefix(3))
    }
}

extension ReplicaID {
    static func random(using generator: inout some RandomNumberGenerator) -> ReplicaID {
        ReplicaID(UUID.random(using: &generator))
    }
}

extension GlobalID {
    static func random(using generator: inout some RandomNumberGenerator) -> GlobalID {
        GlobalID(UUID.random(using: &generator))
    }
}

extension UUID {
    static func random(using generator: inout some RandomNumberGenerator) -> UUID {
        let high = generator.next()
        let low = generator.next()
        return withUnsafeBytes(of: (high, low)) { bytes in
            UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }
}
