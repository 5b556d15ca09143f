import Foundation
import Strata

/// D, delete rules: nullify (to-one, to-many and one-to-one inverses), cascade (one object,
/// chains, subtrees and cycles), deny (refusing the whole save) and no action, each read back
/// after reopening.
enum RelationshipDeleteRuleChecks {
    static var all: [ConformanceCheck] {
        [
            nullify, nullifyToMany, nullifyOneToOne, cascade, cascadeChain, cascadeSubtree, cascadeCycle, deny,
            denyWhenEmpty, noAction,
        ]
    }

    private static let category = ConformanceCategory.relationships

    static let nullify = category.check(
        "deleteRule.nullify", "Deleting the owner of a to-many nullify relationship empties its members' to-one."
    ) { harness in
        let saved = try RelationshipChecks.save(in: harness) { stack in
            let people = try RelationshipChecks.insertPeople(["Ada", "Bob", "Cy"], in: stack)
            let teams = try RelationshipChecks.insertTeams(["Engines", "Wings"], in: stack)
            try stack.run {
                try teams[0].setObjects([people[0], people[1]], forKey: "members")
                try teams[1].setObjects([people[2]], forKey: "members")
            }
            return people + teams
        }
        try RelationshipChecks.change(in: harness, saved) { stack, object in
            try stack.context.delete(object("Engines"))
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try RelationshipChecks.expectGone(["Engines"], saved, in: stack)
            try RelationshipChecks.expectTarget("team", of: "Ada", is: nil, saved, in: stack)
            try RelationshipChecks.expectTarget("team", of: "Bob", is: nil, saved, in: stack)
            try RelationshipChecks.expectTarget("team", of: "Cy", is: "Wings", saved, in: stack)
            try expectEqual(try RelationshipChecks.storedCount("Person", in: stack), 3, "People after the delete")
        }
    }

    static let nullifyToMany = category.check(
        "deleteRule.nullifyToMany", "Deleting a member removes it from its owner's to-many relationship."
    ) { harness in
        let saved = try RelationshipChecks.save(in: harness) { stack in
            let people = try RelationshipChecks.insertPeople(["Ada", "Bob", "Cy", "Dan"], in: stack)
            try stack.run { try people[0].setObjects(Array(people[1...]), forKey: "reports") }
            return people
        }
        try RelationshipChecks.change(in: harness, saved) { stack, object in
            try stack.context.delete(object("Cy"))
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try RelationshipChecks.expectGone(["Cy"], saved, in: stack)
            try RelationshipChecks.expectMembers("reports", of: "Ada", are: ["Bob", "Dan"], saved, in: stack)
        }
    }

    static let nullifyOneToOne = category.check(
        "deleteRule.nullifyOneToOne", "Deleting one side of a one-to-one nullify relationship empties the other side."
    ) { harness in
        let saved = try RelationshipChecks.save(in: harness) { stack in
            let people = try RelationshipChecks.insertPeople(["Ada"], in: stack)
            let passport = try stack.insert("Passport", ["number": "P-1"])
            try stack.run { try people[0].setObject(passport, forKey: "passport") }
            return people + [passport]
        }
        try RelationshipChecks.change(in: harness, saved) { stack, object in
            try stack.context.delete(object("P-1"))
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try RelationshipChecks.expectGone(["P-1"], saved, in: stack)
            try RelationshipChecks.expectTarget("passport", of: "Ada", is: nil, saved, in: stack)
        }
    }

    static let cascade = category.check(
        "deleteRule.cascade", "Deleting an object deletes the destination of its cascade to-one, and nothing else."
    ) { harness in
        let saved = try RelationshipChecks.save(in: harness) { stack in
            let people = try RelationshipChecks.insertPeople(["Ada", "Bob"], in: stack)
            let passports = try ["P-1", "P-2"].map { try stack.insert("Passport", ["number": .string($0)]) }
            try stack.run {
                for (person, passport) in zip(people, passports) { try person.setObject(passport, forKey: "passport") }
            }
            return people + passports
        }
        try RelationshipChecks.change(in: harness, saved) { stack, object in
            try stack.context.delete(object("Ada"))
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try RelationshipChecks.expectGone(["Ada", "P-1"], saved, in: stack)
            try RelationshipChecks.expectTarget("passport", of: "Bob", is: "P-2", saved, in: stack)
            try expectEqual(try RelationshipChecks.storedCount("Passport", in: stack), 1, "Passports after the delete")
        }
    }

    static let cascadeChain = category.check(
        "deleteRule.cascadeChain", "Deleting the root of a tree deletes every node through three levels of cascade."
    ) { harness in
        let saved = try savedForest(in: harness)
        try RelationshipChecks.change(in: harness, saved) { stack, object in
            try stack.context.delete(object("root"))
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try RelationshipChecks.expectGone(["root", "a", "b", "a1", "a2", "a1x"], saved, in: stack)
            try expectEqual(try RelationshipChecks.storedCount("Node", in: stack), 2, "Nodes after the delete")
            try RelationshipChecks.expectMembers("children", of: "other", are: ["o1"], saved, in: stack)
            try RelationshipChecks.expectTarget("parent", of: "o1", is: "other", saved, in: stack)
        }
    }

    static let cascadeSubtree = category.check(
        "deleteRule.cascadeSubtree",
        "Deleting an inner node deletes its subtree and leaves its parent's other children."
    ) { harness in
        let saved = try savedForest(in: harness)
        try RelationshipChecks.change(in: harness, saved) { stack, object in
            try stack.context.delete(object("a"))
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try RelationshipChecks.expectGone(["a", "a1", "a2", "a1x"], saved, in: stack)
            try expectEqual(try RelationshipChecks.storedCount("Node", in: stack), 4, "Nodes after the delete")
            try RelationshipChecks.expectMembers("children", of: "root", are: ["b"], saved, in: stack)
            try RelationshipChecks.expectTarget("parent", of: "b", is: "root", saved, in: stack)
        }
    }

    static let cascadeCycle = category.check(
        "deleteRule.cascadeCycle", "Deleting one object of a cascade cycle deletes the whole cycle, and only it."
    ) { harness in
        let saved = try RelationshipChecks.save(in: harness) { stack in
            let rings = try ["a", "b", "c", "d", "e"].map { try stack.insert("Ring", ["name": .string($0)]) }
            try stack.run {
                for index in 0..<3 { try rings[index].setObject(rings[(index + 1) % 3], forKey: "next") }
                try rings[3].setObject(rings[4], forKey: "next")
            }
            return rings
        }
        try RelationshipChecks.change(in: harness, saved) { stack, object in
            try stack.context.delete(object("b"))
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try RelationshipChecks.expectGone(["a", "b", "c"], saved, in: stack)
            try expectEqual(try RelationshipChecks.storedCount("Ring", in: stack), 2, "Rings after the delete")
            try RelationshipChecks.expectTarget("next", of: "d", is: "e", saved, in: stack)
            try RelationshipChecks.expectTarget("previous", of: "e", is: "d", saved, in: stack)
        }
    }

    static let deny = category.check(
        "deleteRule.deny",
        "Deleting an object whose deny relationship has members fails with deleteDenied, and the whole save is dropped."
    ) { harness in
        let saved = try saveVaults(in: harness)
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try stack.run {
                try stack.context.delete(stack.context.existingObject(with: saved.id("Empty")))
                try stack.context.delete(stack.context.existingObject(with: saved.id("Safe")))
                try stack.context.existingObject(with: saved.id("Gold")).setValue("Brass", forKey: "name")
            }
            try stack.insert("Tag", ["name": "new"])
            try RelationshipChecks.expectValidationError(.deleteDenied, of: saved.id("Safe"), key: "items") {
                try stack.save()
            }
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            for name in ["Safe", "Empty", "Gold"] {
                let id = try saved.id(name)
                let snapshot = try require(
                    try stack.store.snapshot(for: id), "\(id.entityName) '\(name)' is gone after a refused save.")
                try expectEqual(snapshot.values["name"], .string(name), "The name of \(id.entityName) '\(name)'")
                try expectEqual(snapshot.version, 1, "The version of \(id.entityName) '\(name)'")
            }
            try RelationshipChecks.expectMembers("items", of: "Safe", are: ["Gold", "Silver"], saved, in: stack)
            try expectEqual(try RelationshipChecks.storedCount("Tag", in: stack), 0, "Tags after the refused save")
        }
    }

    static let denyWhenEmpty = category.check(
        "deleteRule.denyWhenEmpty",
        "An object whose deny relationship is empty, or emptied in the same save, is deleted."
    ) { harness in
        let saved = try saveVaults(in: harness)
        try RelationshipChecks.change(in: harness, saved) { stack, object in
            for name in ["Gold", "Silver", "Safe", "Empty"] { try stack.context.delete(object(name)) }
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try RelationshipChecks.expectGone(["Safe", "Empty", "Gold", "Silver"], saved, in: stack)
            try expectEqual(try RelationshipChecks.storedCount("Vault", in: stack), 0, "Vaults after the delete")
        }
    }

    static let noAction = category.check(
        "deleteRule.noAction", "Deleting an object with a no-action relationship leaves its destinations untouched."
    ) { harness in
        let saved = try RelationshipChecks.save(in: harness) { stack in
            let tag = try stack.insert("Tag", ["name": "red"])
            let labels = try ["L1", "L2"].map { try stack.insert("Label", ["name": .string($0)]) }
            try stack.run { try tag.setObjects(labels, forKey: "labels") }
            return [tag] + labels
        }
        try RelationshipChecks.change(in: harness, saved) { stack, object in
            try stack.context.delete(object("red"))
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try RelationshipChecks.expectGone(["red"], saved, in: stack)
            for name in ["L1", "L2"] {
                try RelationshipChecks.expectStoredTarget("tag", of: name, is: "red", saved, in: stack)
                let version = try stack.store.snapshot(for: saved.id(name))?.version
                try expectEqual(version, 1, "The version of the untouched Label '\(name)'")
            }
        }
    }

    /// Saves two trees of nodes: root → (a → (a1 → a1x, a2), b), and other → o1.
    private static func savedForest(in harness: CheckHarness) throws -> Named {
        try RelationshipChecks.save(in: harness) { stack in
            let names = ["root", "a", "b", "a1", "a2", "a1x", "other", "o1"]
            let nodes = try names.map { try stack.insert("Node", ["name": .string($0)]) }
            let node = Dictionary(uniqueKeysWithValues: zip(names, nodes))
            let parents = [("a", "root"), ("b", "root"), ("a1", "a"), ("a2", "a"), ("a1x", "a1"), ("o1", "other")]
            try stack.run {
                for (child, parent) in parents { try node[child]?.setObject(node[parent], forKey: "parent") }
            }
            return nodes
        }
    }

    /// Saves the vaults Safe (holding the items Gold and Silver) and Empty.
    private static func saveVaults(in harness: CheckHarness) throws -> Named {
        try RelationshipChecks.save(in: harness) { stack in
            let vaults = try ["Safe", "Empty"].map { try stack.insert("Vault", ["name": .string($0)]) }
            let items = try ["Gold", "Silver"].map { try stack.insert("Item", ["name": .string($0)]) }
            try stack.run { try vaults[0].setObjects(items, forKey: "items") }
            return vaults + items
        }
    }
}
