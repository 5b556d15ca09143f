import Foundation
import Strata

/// D: to-one, to-many, many-to-many, self-referential and ordered relationships, inverses, counts and
/// every delete rule.
///
/// Every check saves named objects, reopens, and reads each relationship twice: through the
/// store (`snapshot(for:)` for to-one references, `relatedObjectIDs(of:relationship:)` for
/// to-many members) and through a context of a new coordinator.
enum RelationshipChecks {
    static var all: [ConformanceCheck] {
        [
            toOneAfterReopen, toOneNilAfterReopen, toManyAfterReopen, emptyToManyIsEmpty, manyToManyBothSides,
            manyToManyRemoveOneSide, oneToOneBothSides, selfReferentialToOne, selfReferentialToMany, selfLoop,
            orderedKeptAfterReopen, orderedShuffledAfterReopen, orderedReorderSaved, orderedInsertInMiddle,
            orderedRemoveFromMiddle, inverseSetFromToOneSide, inverseSetFromToManySide, inverseClearedOnReassign,
            removeFromToMany, toManyKeptWhenOtherPropertyChanges, relatedObjectIDsSavedThroughSPI,
            toManyOfDeletedMember, referencesToNewObjects, minCountValidated, maxCountValidated,
            batchLoadsMatchSingleLoads,
        ] + RelationshipDeleteRuleChecks.all
    }

    private static let category = ConformanceCategory.relationships

    static let toOneAfterReopen = category.check(
        "toOneAfterReopen", "A to-one relationship points at the same object after reopening, its ID in the snapshot."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob"], in: stack)
            let teams = try insertTeams(["Engines", "Wings"], in: stack)
            try stack.run { try people[0].setObject(teams[1], forKey: "team") }
            return people + teams
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectTarget("team", of: "Ada", is: "Wings", saved, in: stack)
            try expectTarget("team", of: "Bob", is: nil, saved, in: stack)
        }
    }

    static let toOneNilAfterReopen = category.check(
        "toOneNilAfterReopen",
        "A to-one relationship emptied after a save is empty (null in the snapshot) after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada"], in: stack)
            let teams = try insertTeams(["Engines"], in: stack)
            try stack.run { try people[0].setObject(teams[0], forKey: "team") }
            return people + teams
        }
        try change(in: harness, saved) { stack, object in
            try object("Ada").setObject(nil, forKey: "team")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectTarget("team", of: "Ada", is: nil, saved, in: stack)
            try expectMembers("members", of: "Engines", are: [], saved, in: stack)
        }
    }

    static let toManyAfterReopen = category.check(
        "toManyAfterReopen", "An unordered to-many relationship holds the same members after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy", "Dan", "Eve"], in: stack)
            try stack.run { try people[0].setObjects([people[3], people[1], people[4]], forKey: "reports") }
            return people
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("reports", of: "Ada", are: ["Bob", "Dan", "Eve"], saved, in: stack)
            try expectMembers("reports", of: "Cy", are: [], saved, in: stack)
        }
    }

    static let emptyToManyIsEmpty = category.check(
        "emptyToManyIsEmpty", "A to-many relationship never set reads back as empty, not as an error, after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            try insertPeople(["Ada"], in: stack) + insertTeams(["Engines"], in: stack)
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            for key in ["reports", "friends"] { try expectMembers(key, of: "Ada", are: [], saved, in: stack) }
            try expectMembers("members", of: "Engines", are: [], ordered: true, saved, in: stack)
        }
    }

    static let manyToManyBothSides = category.check(
        "manyToManyBothSides", "A many-to-many relationship holds its members on both sides after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy", "Dan"], in: stack)
            try stack.run {
                try people[0].setObjects([people[1], people[2]], forKey: "friends")
                try people[1].addObject(people[2], forKey: "friends")
            }
            return people
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("friends", of: "Ada", are: ["Bob", "Cy"], saved, in: stack)
            try expectMembers("friends", of: "Bob", are: ["Ada", "Cy"], saved, in: stack)
            try expectMembers("friends", of: "Cy", are: ["Ada", "Bob"], saved, in: stack)
            try expectMembers("friends", of: "Dan", are: [], saved, in: stack)
        }
    }

    static let manyToManyRemoveOneSide = category.check(
        "manyToManyRemoveOneSide", "Removing a many-to-many member from one side removes it from both after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy"], in: stack)
            try stack.run { try people[0].setObjects([people[1], people[2]], forKey: "friends") }
            return people
        }
        try change(in: harness, saved) { stack, object in
            try object("Bob").removeObject(object("Ada"), forKey: "friends")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("friends", of: "Ada", are: ["Cy"], saved, in: stack)
            try expectMembers("friends", of: "Bob", are: [], saved, in: stack)
            try expectMembers("friends", of: "Cy", are: ["Ada"], saved, in: stack)
        }
    }

    static let oneToOneBothSides = category.check(
        "oneToOneBothSides", "Moving a one-to-one partner to another object empties the first one after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob"], in: stack)
            let passport = try stack.insert("Passport", ["number": "P-1"])
            try stack.run { try people[0].setObject(passport, forKey: "passport") }
            return people + [passport]
        }
        try change(in: harness, saved) { stack, object in
            try object("P-1").setObject(object("Bob"), forKey: "holder")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectTarget("passport", of: "Ada", is: nil, saved, in: stack)
            try expectTarget("passport", of: "Bob", is: "P-1", saved, in: stack)
            try expectTarget("holder", of: "P-1", is: "Bob", saved, in: stack)
        }
    }

    static let selfReferentialToOne = category.check(
        "selfReferentialToOne", "A to-one relationship to the same entity points at the right object after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy"], in: stack)
            try stack.run {
                try people[1].setObject(people[0], forKey: "manager")
                try people[2].setObject(people[1], forKey: "manager")
            }
            return people
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectTarget("manager", of: "Ada", is: nil, saved, in: stack)
            try expectTarget("manager", of: "Bob", is: "Ada", saved, in: stack)
            try expectTarget("manager", of: "Cy", is: "Bob", saved, in: stack)
        }
    }

    static let selfReferentialToMany = category.check(
        "selfReferentialToMany",
        "A to-many relationship to the same entity holds a two-level hierarchy after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy", "Dan", "Eve"], in: stack)
            try stack.run {
                try people[0].setObjects([people[1], people[2]], forKey: "reports")
                try people[2].setObjects([people[3], people[4]], forKey: "reports")
            }
            return people
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("reports", of: "Ada", are: ["Bob", "Cy"], saved, in: stack)
            try expectMembers("reports", of: "Cy", are: ["Dan", "Eve"], saved, in: stack)
            try expectMembers("reports", of: "Bob", are: [], saved, in: stack)
            for (name, manager) in [("Bob", "Ada"), ("Cy", "Ada"), ("Dan", "Cy"), ("Eve", "Cy")] {
                try expectTarget("manager", of: name, is: manager, saved, in: stack)
            }
        }
    }

    static let selfLoop = category.check(
        "selfLoop", "An object related to itself (its own manager and friend) reads back so after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob"], in: stack)
            try stack.run {
                try people[0].setObject(people[0], forKey: "manager")
                try people[0].setObjects([people[0], people[1]], forKey: "friends")
            }
            return people
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectTarget("manager", of: "Ada", is: "Ada", saved, in: stack)
            try expectMembers("reports", of: "Ada", are: ["Ada"], saved, in: stack)
            try expectMembers("friends", of: "Ada", are: ["Ada", "Bob"], saved, in: stack)
            try expectMembers("friends", of: "Bob", are: ["Ada"], saved, in: stack)
        }
    }

    static let orderedKeptAfterReopen = category.check(
        "orderedKeptAfterReopen",
        "An ordered to-many relationship keeps its order, unlike insertion order, after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy", "Dan", "Eve"], in: stack)
            let teams = try insertTeams(["Engines"], in: stack)
            try stack.run {
                try teams[0].setObjects([people[4], people[0], people[3], people[1], people[2]], forKey: "members")
            }
            return people + teams
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers(
                "members", of: "Engines", are: ["Eve", "Ada", "Dan", "Bob", "Cy"], ordered: true, saved, in: stack)
        }
    }

    static let orderedShuffledAfterReopen = category.check(
        "orderedShuffledAfterReopen",
        "Forty members of an ordered relationship, in a seeded random order, keep it after reopening."
    ) { harness in
        let names = (1...40).map { "P\($0)" }
        let order = names.shuffled(using: &harness.random)
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(names, in: stack)
            let teams = try insertTeams(["Engines"], in: stack)
            let byName = Dictionary(uniqueKeysWithValues: zip(names, people))
            try stack.run { try teams[0].setObjects(order.compactMap { byName[$0] }, forKey: "members") }
            return people + teams
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("members", of: "Engines", are: order, ordered: true, saved, in: stack)
        }
    }

    static let orderedReorderSaved = category.check(
        "orderedReorderSaved", "Reordering the members of an ordered relationship is saved, and kept after reopening."
    ) { harness in
        let saved = try savedTeam(["Ada", "Bob", "Cy", "Dan"], in: harness)
        try change(in: harness, saved) { stack, object in
            let reordered = try ["Dan", "Bob", "Ada", "Cy"].map(object)
            try object("Engines").setObjects(reordered, forKey: "members")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers(
                "members", of: "Engines", are: ["Dan", "Bob", "Ada", "Cy"], ordered: true, saved, in: stack)
        }
    }

    static let orderedInsertInMiddle = category.check(
        "orderedInsertInMiddle",
        "A member inserted in the middle of an ordered relationship stays there after reopening."
    ) { harness in
        let saved = try savedTeam(["Ada", "Bob", "Cy", "Dan"], in: harness)
        try change(in: harness, saved) { stack, object in
            let members = try ["Ada", "Bob", "Eve", "Cy", "Dan"].map(object)
            try object("Engines").setObjects(members, forKey: "members")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers(
                "members", of: "Engines", are: ["Ada", "Bob", "Eve", "Cy", "Dan"], ordered: true, saved, in: stack)
            try expectTarget("team", of: "Eve", is: "Engines", saved, in: stack)
        }
    }

    static let orderedRemoveFromMiddle = category.check(
        "orderedRemoveFromMiddle",
        "Removing a member from the middle of an ordered relationship keeps the others' order."
    ) { harness in
        let saved = try savedTeam(["Ada", "Bob", "Cy", "Dan"], in: harness)
        try change(in: harness, saved) { stack, object in
            try object("Engines").removeObject(object("Bob"), forKey: "members")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("members", of: "Engines", are: ["Ada", "Cy", "Dan"], ordered: true, saved, in: stack)
            try expectTarget("team", of: "Bob", is: nil, saved, in: stack)
        }
    }

    static let inverseSetFromToOneSide = category.check(
        "inverseSetFromToOneSide",
        "Setting saved objects' to-one relationship fills the inverse to-many after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            try insertPeople(["Ada", "Bob", "Cy"], in: stack) + insertTeams(["Engines"], in: stack)
        }
        try change(in: harness, saved) { stack, object in
            for name in ["Cy", "Ada"] { try object(name).setObject(object("Engines"), forKey: "team") }
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("members", of: "Engines", are: ["Cy", "Ada"], ordered: true, saved, in: stack)
            try expectTarget("team", of: "Bob", is: nil, saved, in: stack)
        }
    }

    static let inverseSetFromToManySide = category.check(
        "inverseSetFromToManySide",
        "Setting a saved object's to-many relationship sets each member's to-one after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            try insertPeople(["Ada", "Bob", "Cy"], in: stack) + insertTeams(["Engines"], in: stack)
        }
        try change(in: harness, saved) { stack, object in
            try object("Engines").setObjects([object("Bob"), object("Ada")], forKey: "members")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectTarget("team", of: "Ada", is: "Engines", saved, in: stack)
            try expectTarget("team", of: "Bob", is: "Engines", saved, in: stack)
            try expectTarget("team", of: "Cy", is: nil, saved, in: stack)
            try expectMembers("members", of: "Engines", are: ["Bob", "Ada"], ordered: true, saved, in: stack)
        }
    }

    static let inverseClearedOnReassign = category.check(
        "inverseClearedOnReassign",
        "Moving an object to another owner removes it from the old owner's to-many after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy"], in: stack)
            let teams = try insertTeams(["Engines", "Wings"], in: stack)
            try stack.run {
                try teams[0].setObjects(people, forKey: "members")
                try teams[1].setObjects([], forKey: "members")
            }
            return people + teams
        }
        try change(in: harness, saved) { stack, object in
            try object("Bob").setObject(object("Wings"), forKey: "team")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("members", of: "Engines", are: ["Ada", "Cy"], ordered: true, saved, in: stack)
            try expectMembers("members", of: "Wings", are: ["Bob"], ordered: true, saved, in: stack)
            try expectTarget("team", of: "Bob", is: "Wings", saved, in: stack)
        }
    }

    static let removeFromToMany = category.check(
        "removeFromToMany", "Removing a member from an unordered to-many empties its to-one inverse after reopening."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy"], in: stack)
            try stack.run { try people[0].setObjects([people[1], people[2]], forKey: "reports") }
            return people
        }
        try change(in: harness, saved) { stack, object in
            try object("Ada").removeObject(object("Cy"), forKey: "reports")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("reports", of: "Ada", are: ["Bob"], saved, in: stack)
            try expectTarget("manager", of: "Cy", is: nil, saved, in: stack)
            try expectTarget("manager", of: "Bob", is: "Ada", saved, in: stack)
        }
    }

    static let toManyKeptWhenOtherPropertyChanges = category.check(
        "toManyKeptWhenOtherPropertyChanges",
        "Saving an object whose to-many relationships did not change (only an attribute) keeps their members."
    ) { harness in
        let saved = try savedTeam(["Ada", "Bob"], in: harness)
        try change(in: harness, saved) { stack, object in
            try object("Engines").setValue(.integer64(99), forKey: "serial")
            try object("Ada").setValue(.integer32(36), forKey: "age")
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("members", of: "Engines", are: ["Ada", "Bob"], ordered: true, saved, in: stack)
            try expectTarget("team", of: "Ada", is: "Engines", saved, in: stack)
        }
    }

    static let relatedObjectIDsSavedThroughSPI = category.check(
        "relatedObjectIDsSavedThroughSPI",
        "A change set saved straight to the store gives back its to-many members, in order, and to-one references."
    ) { harness in
        let saved: Named = try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let ids = try stack.store.permanentIDs(forEntities: ["Team", "Person", "Person", "Person"])
            try expectEqual(ids.count, 4, "The number of IDs permanentIDs(forEntities:) handed out for four names")
            let (team, people) = (ids[0], Array(ids[1...]))
            let names = ["Ada", "Bob", "Cy"]
            var inserted = [
                StoreChangeSet.ObjectChange(
                    objectID: team, values: ["serial": 10, "name": "Engines"],
                    toManyRelationships: ["members": [people[2], people[0], people[1]]], expectedVersion: 0)
            ]
            for (index, id) in people.enumerated() {
                inserted.append(
                    StoreChangeSet.ObjectChange(
                        objectID: id,
                        values: [
                            "serial": .integer64(Int64(index + 1)), "name": .string(names[index]), "age": .null,
                            "team": .objectID(team), "manager": .null, "passport": .null,
                        ],
                        toManyRelationships: ["friends": [], "reports": []], expectedVersion: 0))
            }
            try stack.save(StoreChangeSet(inserted: inserted))
            return Named(Dictionary(uniqueKeysWithValues: zip(["Engines"] + names, ids)))
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("members", of: "Engines", are: ["Cy", "Ada", "Bob"], ordered: true, saved, in: stack)
            for name in ["Ada", "Bob", "Cy"] {
                try expectTarget("team", of: name, is: "Engines", saved, in: stack)
                try expectMembers("friends", of: name, are: [], saved, in: stack)
            }
        }
    }

    static let toManyOfDeletedMember = category.check(
        "toManyOfDeletedMember", "A deleted object leaves every many-to-many it was in, and no member lacks a snapshot."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let people = try insertPeople(["Ada", "Bob", "Cy"], in: stack)
            try stack.run {
                try people[0].setObjects([people[1], people[2]], forKey: "friends")
                try people[1].addObject(people[2], forKey: "friends")
            }
            return people
        }
        try change(in: harness, saved) { stack, object in try stack.context.delete(object("Bob")) }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectGone(["Bob"], saved, in: stack)
            try expectMembers("friends", of: "Ada", are: ["Cy"], saved, in: stack)
            try expectMembers("friends", of: "Cy", are: ["Ada"], saved, in: stack)
        }
    }

    static let referencesToNewObjects = category.check(
        "referencesToNewObjects",
        "Saved objects related to objects inserted in the same save store the new objects' permanent IDs."
    ) { harness in
        let first = try save(in: harness) { stack in
            try insertPeople(["Ada", "Bob"], in: stack)
        }
        let saved: Named = try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let team = try insertTeams(["Wings"], in: stack)[0]
            let cy = try stack.insert("Person", ["serial": 3, "name": "Cy"])
            let (ada, bob) = try stack.run {
                (
                    try stack.context.existingObject(with: first.id("Ada")),
                    try stack.context.existingObject(with: first.id("Bob"))
                )
            }
            try stack.run {
                try team.setObjects([bob, cy, ada], forKey: "members")
                try ada.setObject(cy, forKey: "manager")
                try bob.setObjects([cy], forKey: "friends")
            }
            try stack.save()
            return try Named([team, cy, ada, bob], in: stack)
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("members", of: "Wings", are: ["Bob", "Cy", "Ada"], ordered: true, saved, in: stack)
            try expectTarget("team", of: "Ada", is: "Wings", saved, in: stack)
            try expectTarget("manager", of: "Ada", is: "Cy", saved, in: stack)
            try expectMembers("reports", of: "Cy", are: ["Ada"], saved, in: stack)
            try expectMembers("friends", of: "Bob", are: ["Cy"], saved, in: stack)
            try expectMembers("friends", of: "Cy", are: ["Bob"], saved, in: stack)
        }
    }

    static let maxCountValidated = category.check(
        "maxCountValidated",
        "A save that puts more than the maximum in a to-many fails with tooManyObjects and writes nothing."
    ) { harness in
        let saved = try save(in: harness) { stack in
            let crew = try stack.insert("Crew", ["name": "Blue"])
            let sailors = try ["S1", "S2", "S3"].map { try stack.insert("Sailor", ["name": .string($0)]) }
            try stack.run { try crew.setObjects(sailors, forKey: "sailors") }
            return [crew] + sailors
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let crew = try stack.run { try stack.context.existingObject(with: saved.id("Blue")) }
            let fourth = try stack.insert("Sailor", ["name": "S4"])
            try stack.run { try fourth.setObject(crew, forKey: "crew") }
            try expectValidationError(.tooManyObjects, of: saved.id("Blue"), key: "sailors") { try stack.save() }
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try expectMembers("sailors", of: "Blue", are: ["S1", "S2", "S3"], saved, in: stack)
            try expectEqual(try storedCount("Sailor", in: stack), 3, "Sailors in the store after the refused save")
        }
    }

    static let minCountValidated = category.check(
        "minCountValidated",
        "A save that leaves fewer than the minimum in a to-many fails with tooFewObjects and writes nothing."
    ) { harness in
        let saved: Named = try withFleet(in: harness) { stack in
            let fleet = try stack.insert("Fleet", ["name": "North"])
            let ships = try ["S1", "S2", "S3"].map { try stack.insert("Ship", ["name": .string($0)]) }
            try stack.run { try fleet.setObjects(ships, forKey: "ships") }
            try stack.save()
            return try Named([fleet] + ships, in: stack)
        }
        try withFleet(in: harness) { stack in
            let fleet = try stack.run { try stack.context.existingObject(with: saved.id("North")) }
            let kept = try stack.run { try stack.context.existingObject(with: saved.id("S3")) }
            try stack.run { try fleet.setObjects([kept], forKey: "ships") }
            try expectValidationError(.tooFewObjects, of: saved.id("North"), key: "ships") { try stack.save() }
        }
        try withFleet(in: harness) { stack in
            try expectMembers("ships", of: "North", are: ["S1", "S2", "S3"], saved, in: stack)
            let fleet = try stack.run { try stack.context.existingObject(with: saved.id("North")) }
            let removed = try stack.run { try stack.context.existingObject(with: saved.id("S1")) }
            try stack.run { try fleet.removeObject(removed, forKey: "ships") }
            try stack.save()
        }
        try withFleet(in: harness) { stack in
            try expectMembers("ships", of: "North", are: ["S2", "S3"], saved, in: stack)
            try expectTarget("fleet", of: "S1", is: nil, saved, in: stack)
        }
    }

    /// A fleet whose ships number at least two: the conformance model's only counted relationship
    /// has a minimum of one, which an optional relationship can never fall below.
    private static let fleetModel = ManagedObjectModel {
        EntityDescription("Fleet") {
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("ships", destination: "Ship", inverse: "fleet", minCount: 2)
        }
        EntityDescription("Ship") {
            AttributeDescription("name", .string)
            RelationshipDescription.toOne("fleet", destination: "Fleet", inverse: "ships")
        }
    }

    /// Opens the store called "fleet", holding ``fleetModel``, in a new coordinator, as
    /// ``CheckHarness/withStore(_:configuration:options:body:)`` does for the conformance model.
    static func withFleet<T>(in harness: CheckHarness, _ body: (CheckStack) throws -> T) throws -> T {
        let coordinator = try PersistentStoreCoordinator(
            model: fleetModel, storeTypes: [harness.suite.storeType],
            valueTransformers: ConformanceModel.valueTransformers)
        let store = try harness.openStore("fleet", in: coordinator)
        defer { try? coordinator.remove(store) }
        return try body(CheckStack(coordinator: coordinator, store: store))
    }

    /// Runs `body`, which must throw a validation error with `code` for `objectID` and `key`,
    /// alone or among others.
    static func expectValidationError(
        _ code: ValidationError.Code, of objectID: ObjectID, key: String, _ body: () throws -> Void
    ) throws {
        try expectError("a \(code) validation error for '\(key)' of \(objectID)", body) { error in
            let errors =
                (error as? ValidationError).map { [$0] } ?? (error as? ContextError)?.validationErrors ?? []
            return errors.contains { $0.code == code && $0.objectID == objectID && $0.key == key }
        }
    }
}
