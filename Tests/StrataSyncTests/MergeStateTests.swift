import Foundation
import Strata
import StrataSync
import Testing

/// The merge rules one operation at a time: the later write wins, ties go to the higher replica
/// ID, additions win over concurrent removals, deletions as the entity's rule says, and the
/// result is the same in every order of arrival.
@Suite struct MergeStateTests {
    let low = ReplicaID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
    let high = ReplicaID(UUID(uuidString: "F0000000-0000-0000-0000-000000000000")!)
    let item = GlobalID.random()

    private func stamp(_ milliseconds: Int64, _ counter: UInt32 = 0, _ replica: ReplicaID) -> SyncTimestamp {
        SyncTimestamp(milliseconds: milliseconds, counter: counter, replica: replica)
    }

    private func operation(
        _ change: SyncOperation.Change, at stamp: SyncTimestamp, on object: GlobalID? = nil, entity: String = "Item"
    ) -> SyncOperation {
        SyncOperation(object: object ?? item, entity: entity, stamp: stamp, change: change)
    }

    /// The states `operations` give applied in every order (all of them for up to five, else
    /// a hundred shuffles), each applied twice.
    static func statesInEveryOrder(
        _ operations: [SyncOperation], rules: MergeRules = MergeRules()
    ) throws -> Set<[GlobalID: ResolvedObject]> {
        var orders: [[SyncOperation]] = []
        if operations.count <= 5 {
            func permute(_ prefix: [SyncOperation], _ rest: [SyncOperation]) {
                if rest.isEmpty { orders.append(prefix) }
                for index in rest.indices {
                    var remaining = rest
                    permute(prefix + [remaining.remove(at: index)], remaining)
                }
            }
            permute([], operations)
        } else {
            orders = (0..<100).map { _ in operations.shuffled() }
        }
        var states: Set<[GlobalID: ResolvedObject]> = []
        for order in orders {
            var state = MergeState(rules: rules)
            for operation in order + order { try state.apply(operation) }
            states.insert(state.resolvedObjects())
        }
        return states
    }

    @Test func theLaterWriteWinsAndTiesGoToTheHigherReplica() throws {
        let early = operation(.set(key: "name", value: .attribute("early")), at: stamp(5, 0, high))
        let late = operation(.set(key: "name", value: .attribute("late")), at: stamp(6, 0, low))
        let tie = operation(.set(key: "name", value: .attribute("tie, low")), at: stamp(6, 0, low))
        let tieHigh = operation(.set(key: "name", value: .attribute("tie, high")), at: stamp(6, 0, high))
        let states = try Self.statesInEveryOrder([early, late, tieHigh])
        #expect(states.count == 1)
        #expect(states.first?[item]?.values["name"] == .attribute("tie, high"))
        var state = MergeState()
        #expect(try state.apply(late) == .applied)
        #expect(try state.apply(early) == .superseded(by: late.stamp))
        #expect(try state.apply(late) == .duplicate)
        #expect(try state.apply(tieHigh) == .applied)
        // Two different writes stamped alike (which only a damaged or forged peer sends) still
        // settle the same way in every order.
        #expect(try Self.statesInEveryOrder([late, tie]).count == 1)
    }

    @Test func anAdditionWinsOverAConcurrentRemoval() throws {
        let member = GlobalID.random()
        let added = operation(.add(key: "tags", member: member), at: stamp(1, 0, low))
        // High saw the first addition and removes it; low adds the member again meanwhile.
        let removed = operation(.remove(key: "tags", member: member, observed: [added.stamp]), at: stamp(3, 0, high))
        let addedAgain = operation(.add(key: "tags", member: member), at: stamp(2, 0, low))
        let member2 = operation(.set(key: "name", value: .attribute("m")), at: stamp(1, 0, low), on: member)
        let states = try Self.statesInEveryOrder([added, removed, addedAgain, member2])
        #expect(states.count == 1)
        #expect(states.first?[item]?.relationships["tags"] == [member])
        // A removal that saw both additions takes the member away, in every order.
        let removedAll = operation(
            .remove(key: "tags", member: member, observed: [added.stamp, addedAgain.stamp]), at: stamp(4, 0, high))
        let after = try Self.statesInEveryOrder([added, removed, addedAgain, removedAll, member2])
        #expect(after.count == 1)
        #expect(after.first?[item]?.relationships["tags"] == [])
    }

    @Test func aDeletionWinsOverUpdatesUnlessTheEntitySaysOtherwise() throws {
        let created = operation(.set(key: "name", value: .attribute("a")), at: stamp(1, 0, low))
        let deleted = operation(.delete, at: stamp(2, 0, high))
        let updatedAfter = operation(.set(key: "name", value: .attribute("b")), at: stamp(3, 0, low))
        let deleteWins = try Self.statesInEveryOrder([created, deleted, updatedAfter])
        #expect(deleteWins == [[:]])
        let rules = MergeRules(deleteRules: ["Item": .updateWins])
        let updateWins = try Self.statesInEveryOrder([created, deleted, updatedAfter], rules: rules)
        #expect(updateWins.count == 1)
        #expect(updateWins.first?[item]?.values["name"] == .attribute("b"))
        // Under either rule, writes all stamped before the deletion leave the object deleted.
        #expect(try Self.statesInEveryOrder([created, deleted], rules: rules) == [[:]])
    }

    @Test func referencesAndMembersThatAreDeletedResolveAsGone() throws {
        let parent = GlobalID.random()
        let child = GlobalID.random()
        let operations = [
            operation(.set(key: "name", value: .attribute("child")), at: stamp(1, 0, low), on: child),
            operation(.set(key: "parent", value: .reference(parent)), at: stamp(1, 1, low), on: child),
            operation(.set(key: "name", value: .attribute("parent")), at: stamp(1, 2, low), on: parent),
            operation(.add(key: "children", member: child), at: stamp(1, 3, low), on: parent),
            operation(.delete, at: stamp(2, 0, high), on: child),
        ]
        let states = try Self.statesInEveryOrder(operations)
        #expect(states.count == 1)
        let resolved = try #require(states.first)
        #expect(resolved[child] == nil)
        #expect(resolved[parent]?.relationships["children"] == [])
        var state = MergeState()
        for operation in operations.dropLast() { try state.apply(operation) }
        try state.apply(operation(.delete, at: stamp(3, 0, high), on: parent))
        #expect(state.resolved(child)?.values["parent"] == .reference(nil))
    }

    @Test func anOperationNamingAKnownObjectAsAnotherEntityIsRefused() throws {
        var state = MergeState()
        try state.apply(operation(.set(key: "name", value: .attribute("a")), at: stamp(1, 0, low)))
        let before = state.resolvedObjects()
        let error = #expect(throws: SyncError.self) {
            try state.apply(operation(.set(key: "name", value: .attribute("b")), at: stamp(2, 0, low), entity: "Tag"))
        }
        #expect(error?.code == .entityMismatch)
        #expect(error?.message.contains("'Tag'") == true)
        #expect(state.resolvedObjects() == before)
    }

    @Test func operationsRoundTripThroughJSON() throws {
        let operations = [
            operation(.insert, at: stamp(1, 0, low)),
            operation(.set(key: "name", value: .attribute(.string("a"))), at: stamp(1, 0, low)),
            operation(.set(key: "parent", value: .reference(.random())), at: stamp(1, 1, low)),
            operation(.set(key: "parent", value: .reference(nil)), at: stamp(1, 2, low)),
            operation(.add(key: "tags", member: .random()), at: stamp(2, 0, high)),
            operation(.remove(key: "tags", member: .random(), observed: [stamp(2, 0, high)]), at: stamp(3, 0, high)),
            operation(.delete, at: stamp(4, 0, high)),
        ]
        let data = try JSONEncoder().encode(operations)
        #expect(try JSONDecoder().decode([SyncOperation].self, from: data) == operations)
    }
}

/// A replica's bookkeeping kept between runs: the merged state and the identities round-trip
/// through JSON, and a damaged identity file is a typed decoding error.
@Suite struct SyncBookkeepingCodingTests {
    @Test func aMergedStateComesBackAsItWasSaved() throws {
        let state = try ConvergenceTests.simulate(seed: 7, replicaCount: 2, steps: 300, rules: MergeRules()).hubState
        let decoded = try JSONDecoder().decode(MergeState.self, from: try JSONEncoder().encode(state))
        #expect(decoded == state)
        #expect(decoded.resolvedObjects() == state.resolvedObjects())
    }

    @Test func identitiesComeBackAndADamagedOneIsRefused() throws {
        let store = "B3F1E2D4-0000-4000-8000-000000000001"
        let objectID = try #require(ObjectID(uriString: "x-strata://\(store)/Book/p7"))
        var identities = SyncIdentities()
        let id = identities.globalID(for: objectID)
        let decoded = try JSONDecoder().decode(SyncIdentities.self, from: try JSONEncoder().encode(identities))
        #expect(decoded == identities)
        #expect(decoded.objectID(for: id) == objectID)
        let damaged = Data(#"{"not a URI": "\#(id)"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SyncIdentities.self, from: damaged) }
    }

    @Test func valuesAndTimestampsTravelInShortForms() throws {
        let target = GlobalID(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let forms: [(SyncValue, String)] = [
            (.attribute(.string("Dune")), #"{"attribute":{"string":"Dune"}}"#),
            (.reference(target), #"{"reference":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#),
            (.reference(nil), #"{"reference":null}"#),
        ]
        for (value, json) in forms {
            #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == json)
            #expect(try JSONDecoder().decode(SyncValue.self, from: Data(json.utf8)) == value)
        }
        for damaged in [#"{}"#, #"{"attribute":{"string":"a"},"reference":null}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(SyncValue.self, from: Data(damaged.utf8)) }
        }
        let stamp = SyncTimestamp(milliseconds: 1_796_633_692_151, counter: 3, replica: ReplicaID(target.uuid))
        let stampJSON = #"["1796633692151.3@E621E1F8-C36C-495A-93FC-0C247A3E6E5F"]"#
        #expect(String(decoding: try encoder.encode([stamp]), as: UTF8.self) == stampJSON)
        #expect(try JSONDecoder().decode([SyncTimestamp].self, from: Data(stampJSON.utf8)) == [stamp])
        for damaged in [#"["1796633692151@E621E1F8-C36C-495A-93FC-0C247A3E6E5F"]"#, #"["1.2@not-a-uuid"]"#, #"["-"]"#] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode([SyncTimestamp].self, from: Data(damaged.utf8))
            }
        }
    }
}
