import Foundation
import Strata
import StrataSync
import Testing

/// Objects inserted on two replicas with the same values of a uniqueness constraint show as
/// one, the same one in every order of arrival: the first inserted, with the latest write of
/// each key among them, all their members, and every reference to any of them; a replica's
/// change to it is written to each, so they go on showing as one.
@Suite struct UniquenessGroupTests {
    let first = ReplicaID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
    let second = ReplicaID(UUID(uuidString: "F0000000-0000-0000-0000-000000000000")!)
    let early = GlobalID.random()
    let late = GlobalID.random()

    /// Tags unique by name; notes unique by tag and title together.
    let rules = MergeRules(uniquenessConstraints: [
        "Tag": [.init(entity: "Tag", keys: ["name"])],
        "Note": [.init(entity: "Note", keys: ["tag", "title"])],
    ])

    private func stamp(_ milliseconds: Int64, _ replica: ReplicaID) -> SyncTimestamp {
        SyncTimestamp(milliseconds: milliseconds, counter: 0, replica: replica)
    }

    /// The operations inserting `object` with `values` and `members`, stamped `stamp`.
    private func insert(
        _ object: GlobalID, _ entity: String, _ values: [String: SyncValue], members: [String: [GlobalID]] = [:],
        at stamp: SyncTimestamp
    ) -> [SyncOperation] {
        [SyncOperation(object: object, entity: entity, stamp: stamp, change: .insert)]
            + values.sorted { $0.key < $1.key }.map {
                SyncOperation(object: object, entity: entity, stamp: stamp, change: .set(key: $0.key, value: $0.value))
            }
            + members.flatMap { key, targets in
                targets.map {
                    SyncOperation(object: object, entity: entity, stamp: stamp, change: .add(key: key, member: $0))
                }
            }
    }

    /// Two tags named "swift", inserted at 1 and 2 on different replicas, each with a note.
    private func clash() -> (operations: [SyncOperation], notes: (GlobalID, GlobalID)) {
        let notes = (GlobalID.random(), GlobalID.random())
        let operations =
            insert(early, "Tag", ["name": .attribute("swift"), "colour": .attribute("red")], at: stamp(1, second))
            + insert(notes.0, "Note", ["title": .attribute("a"), "tag": .reference(early)], at: stamp(1, second))
            + insert(late, "Tag", ["name": .attribute("swift"), "colour": .attribute("blue")], at: stamp(2, first))
            + insert(notes.1, "Note", ["title": .attribute("b"), "tag": .reference(late)], at: stamp(2, first))
        return (operations, notes)
    }

    @Test func twoInsertsOfOneUniqueKeyShowAsTheFirstInEveryOrder() throws {
        let (operations, notes) = clash()
        var states = Set<[GlobalID: ResolvedObject]>()
        for _ in 0..<50 {
            var state = MergeState(rules: rules)
            for operation in operations.shuffled() + operations.shuffled() { try state.apply(operation) }
            states.insert(state.resolvedObjects())
        }
        #expect(states.count == 1)
        let resolved = try #require(states.first)
        #expect(resolved[late] == nil, "the later insert shows as the earlier")
        #expect(resolved[early]?.values["colour"] == .attribute("blue"), "the latest write of the pair")
        #expect(resolved[notes.1]?.values["tag"] == .reference(early), "a reference to the later names the earlier")
        #expect(resolved.count == 3)
    }

    @Test func withoutTheConstraintBothShow() throws {
        var state = MergeState()
        for operation in clash().operations { try state.apply(operation) }
        #expect(state.resolved(late) != nil)
        #expect(state.uniquenessGroup(of: early) == [early])
    }

    @Test func membersOfBothAreTheOnesMembersAndReferencesToEitherMatchForKeysThatNameObjects() throws {
        var state = MergeState(rules: rules)
        for operation in clash().operations { try state.apply(operation) }
        let (noteOfEarly, noteOfLate) = (GlobalID.random(), GlobalID.random())
        let operations =
            insert(noteOfEarly, "Note", ["title": .attribute("same"), "tag": .reference(early)], at: stamp(3, first))
            + insert(noteOfLate, "Note", ["title": .attribute("same"), "tag": .reference(late)], at: stamp(4, second))
            + [
                SyncOperation(
                    object: early, entity: "Tag", stamp: stamp(5, first),
                    change: .add(key: "pinned", member: noteOfEarly)),
                SyncOperation(
                    object: late, entity: "Tag", stamp: stamp(5, second),
                    change: .add(key: "pinned", member: noteOfLate)),
            ]
        for operation in operations { try state.apply(operation) }
        // The two notes titled "same" name tags that show as one: they show as one too.
        #expect(state.uniquenessGroup(of: noteOfLate) == [noteOfEarly, noteOfLate])
        #expect(state.resolved(noteOfLate) == nil)
        #expect(state.resolved(early)?.relationships["pinned"] == [noteOfEarly])
    }

    @Test func aChangeToTheObjectShownIsWrittenToEachAndKeepsThemOne() throws {
        var state = MergeState(rules: rules)
        for operation in clash().operations { try state.apply(operation) }
        let shown = try #require(state.resolved(early))
        // The store never shows the later tag: its absence is no deletion.
        #expect(try state.operations(bringing: late, to: nil, at: stamp(9, first)) == [])
        #expect(try state.operations(bringing: early, to: shown, at: stamp(9, first)) == [])

        var renamed = shown.values
        renamed["name"] = .attribute("swift-lang")
        let rename = try state.operations(
            bringing: early, to: ResolvedObject(entity: "Tag", values: renamed, relationships: shown.relationships),
            at: stamp(10, first))
        #expect(Set(rename.map(\.object)) == [early, late])
        for operation in rename { try state.apply(operation) }
        #expect(state.uniquenessGroup(of: early) == [early, late])
        #expect(state.resolved(early)?.values["name"] == .attribute("swift-lang"))
        #expect(state.resolved(late) == nil)

        let deletion = try state.operations(bringing: early, to: nil, at: stamp(11, first))
        #expect(deletion.map(\.change) == [.delete, .delete])
        for operation in deletion { try state.apply(operation) }
        #expect(state.resolvedObjects().values.allSatisfy { $0.entity == "Note" })
    }

    @Test func aRenameByAReplicaThatHadNotSeenTheOtherLetsItShowAgain() throws {
        var state = MergeState(rules: rules)
        for operation in clash().operations { try state.apply(operation) }
        try state.apply(
            SyncOperation(
                object: early, entity: "Tag", stamp: stamp(3, second),
                change: .set(key: "name", value: .attribute("swiftlang"))))
        #expect(state.resolved(late)?.values["name"] == .attribute("swift"))
        #expect(state.resolved(early)?.values["name"] == .attribute("swiftlang"))
    }

    @Test func aStateKeptAndReadBackGroupsTheSame() throws {
        var state = MergeState(rules: rules)
        for operation in clash().operations { try state.apply(operation) }
        let read = try JSONDecoder().decode(MergeState.self, from: JSONEncoder().encode(state))
        #expect(read.uniquenessGroup(of: late) == [early, late])
        #expect(read.resolvedObjects() == state.resolvedObjects())
    }

    @Test func theRulesTakeTheConstraintsOfTheModelAndItsSuperentities() throws {
        let model = ManagedObjectModel {
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                UniquenessConstraint("name")
            }
            EntityDescription("Label", parent: "Tag") { AttributeDescription("hue", .string) }
            EntityDescription("Note") { AttributeDescription("title", .string) }
        }
        try model.freeze()
        let schema = model.schema
        let rules = MergeRules().constrained(by: schema)
        let constraint = MergeRules.UniquenessConstraint(entity: "Tag", keys: ["name"])
        #expect(rules.uniquenessConstraints == ["Tag": [constraint], "Label": [constraint]])
    }

    @Test func nestedFoldersMadeApartShowAsOneAtEveryDepthInEveryOrder() throws {
        let rules = MergeRules(uniquenessConstraints: ["Folder": [.init(entity: "Folder", keys: ["name", "parent"])]])
        let root = GlobalID.random()
        var operations = insert(root, "Folder", ["name": .attribute("root")], at: stamp(1, first))
        var chains: [[GlobalID]] = []
        for (index, replica) in [first, second].enumerated() {
            var parent = root
            var chain: [GlobalID] = []
            for name in ["docs", "a", "b"] {
                let folder = GlobalID.random()
                operations += insert(
                    folder, "Folder", ["name": .attribute(.string(name)), "parent": .reference(parent)],
                    at: stamp(2 + Int64(index), replica))
                chain.append(folder)
                parent = folder
            }
            chains.append(chain)
        }
        var states = Set<[GlobalID: ResolvedObject]>()
        for _ in 0..<30 {
            var state = MergeState(rules: rules)
            for operation in operations.shuffled() { try state.apply(operation) }
            for depth in 0..<3 {
                #expect(state.uniquenessGroup(of: chains[1][depth]) == [chains[0][depth], chains[1][depth]])
            }
            states.insert(state.resolvedObjects())
        }
        #expect(states.count == 1)
        let shown = try #require(states.first)
        #expect(shown.count == 4)
        #expect(shown[chains[0][2]]?.values["parent"] == .reference(chains[0][1]))
    }
}
