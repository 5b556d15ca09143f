import Foundation
import Strata

extension RelationshipChecks {
    static let batchLoadsMatchSingleLoads = ConformanceCategory.relationships.check(
        "batchLoadsMatchSingleLoads",
        "snapshots(for:) and relatedObjectIDs(ofEach:relationship:) answer as the one-object forms do for each "
            + "object (a deleted object has no snapshot; a deleted owner is an unknownObject error)."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy", "Dan", "Eve"], in: stack)
            let teams = try insertTeams(["Engines", "Wings"], in: stack)
            try stack.run {
                try people[0].setObjects([people[3], people[1]], forKey: "reports")
                try people[1].setObjects([people[2], people[4]], forKey: "friends")
                try teams[0].setObjects([people[4], people[0], people[2]], forKey: "members")
            }
            return people + teams
        }
        try change(in: harness, saved) { stack, object in try stack.context.delete(object("Dan")) }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let people = try ["Ada", "Bob", "Cy", "Dan", "Eve"].map { try saved.id($0) }
            let teams = try ["Engines", "Wings"].map { try saved.id($0) }
            let single = try (people + teams).compactMap { try stack.store.snapshot(for: $0) }
            let batched = try stack.store.snapshots(for: people + teams)
            try expectEqual(
                Set(batched), Set(single), "The snapshots of Ada, Bob, Cy, Dan (deleted), Eve, Engines and Wings")
            try expectEqual(batched.count, single.count, "The number of snapshots, each object once")

            let living = people.filter { $0 != (try? saved.id("Dan")) }
            for (owners, key, ordered) in [
                (living, "reports", false), (living, "friends", false), (teams, "members", true),
            ] {
                let members = try stack.store.relatedObjectIDs(ofEach: owners, relationship: key)
                try expectEqual(
                    Set(members.keys), Set(owners), "The owners relatedObjectIDs(ofEach:) answered for \(key)")
                for owner in owners {
                    let one = try stack.store.relatedObjectIDs(of: owner, relationship: key)
                    let many = members[owner] ?? []
                    try expect(
                        ordered ? many == one : Set(many) == Set(one) && many.count == one.count,
                        "\(saved.name(of: owner)).\(key) in a batch is \(many.map(saved.name)), alone \(one.map(saved.name))"
                    )
                }
            }
            try expectError(
                "relatedObjectIDs(ofEach:) naming the deleted Dan to fail with unknownObject",
                { _ = try stack.store.relatedObjectIDs(ofEach: people, relationship: "reports") },
                matches: { ($0 as? StoreError)?.code == .unknownObject })
        }
    }
}
