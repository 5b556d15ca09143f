import Foundation
import Strata

/// U: uniqueness constraints hold in every store: a save that would leave two objects with the
/// same values of a constraint's keys fails with a typed error naming them, and the merge
/// policies turn such an insert into an update of the saved object (Core Data's upsert).
enum ConstraintChecks {
    static var all: [ConformanceCheck] {
        [
            duplicateInsertRefused, duplicatesInOneSaveRefused, compoundKeys, nullsNeverClash, inheritedConstraint,
            storeRefusesDuplicates, updateIntoSavedValuesRefused, upsertObjectTrump, upsertStoreTrump,
            duplicatesInOneSaveMerged, registeredObjectAbsorbsInsert, keysPassedOnWithinOneSave,
        ]
    }

    private static let category = ConformanceCategory.constraints

    static let duplicateInsertRefused = category.check(
        "duplicateInsertRefused",
        "Under the error policy, inserting an object whose constrained keys a saved object holds fails with "
            + "constraintConflict naming the entity, keys, values and both objects; nothing is written."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let saved = try stack.insert("Member", ["email": "ada@example.com", "name": "Ada"])
            try stack.save()
            let second = CheckStack(coordinator: stack.coordinator, store: stack.store)
            let duplicate = try second.insert("Member", ["email": "ada@example.com", "name": "Other"])
            let conflict = try expectConstraintConflict(in: second)
            try expectEqual(conflict.constraint.entityName, "Member", "the conflict's entity")
            try expectEqual(conflict.constraint.keys, ["email"], "the conflict's keys")
            try expectEqual(conflict.values, [.string("ada@example.com")], "the conflict's values")
            try expectEqual(conflict.storedObjectID, saved.objectID, "the conflict's saved object")
            try expectEqual(conflict.objectIDs.count, 1, "the number of saved objects in the conflict")
            try second.run { try expect(duplicate.objectID.isTemporary, "The refused object kept a permanent ID.") }
            try expectMembers(["Ada"], in: stack)
        }
    }

    static let duplicatesInOneSaveRefused = category.check(
        "duplicatesInOneSaveRefused",
        "Under the error policy, two objects of one save with the same constrained keys fail the save; "
            + "nothing is written."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try stack.insert("Member", ["email": "a@example.com", "name": "One"])
            try stack.insert("Member", ["email": "a@example.com", "name": "Two"])
            let conflict = try expectConstraintConflict(in: stack)
            try expectEqual(conflict.objectIDs.count, 2, "the number of objects in the conflict")
            try expectEqual(conflict.storedObjectID, nil, "the conflict's saved object")
            try expectMembers([], in: CheckStack(coordinator: stack.coordinator, store: stack.store))
        }
    }

    static let compoundKeys = category.check(
        "compoundKeys", "A constraint over two keys refuses only objects that share both."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try stack.insert("Seat", ["row": .integer16(1), "number": .integer16(1), "holder": "Ann"])
            try stack.insert("Seat", ["row": .integer16(1), "number": .integer16(2), "holder": "Bo"])
            try stack.insert("Seat", ["row": .integer16(2), "number": .integer16(1), "holder": "Cy"])
            try stack.save()
            let second = CheckStack(coordinator: stack.coordinator, store: stack.store)
            try second.insert("Seat", ["row": .integer16(1), "number": .integer16(2), "holder": "Di"])
            let conflict = try expectConstraintConflict(in: second)
            try expectEqual(conflict.constraint.keys, ["row", "number"], "the conflict's keys")
            try expectEqual(conflict.values, [.integer16(1), .integer16(2)], "the conflict's values")
            try expectEqual(try stack.objects("Seat").count, 3, "the number of saved Seats")
        }
    }

    static let nullsNeverClash = category.check(
        "nullsNeverClash", "Objects whose constrained key is null never clash, as in SQL's unique indexes."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try stack.insert("Member", ["name": "A"])
            try stack.insert("Member", ["name": "B"])
            try stack.save()
            try stack.insert("Member", ["name": "C"])
            try stack.save()
            try expectMembers(["A", "B", "C"], in: CheckStack(coordinator: stack.coordinator, store: stack.store))
        }
    }

    static let inheritedConstraint = category.check(
        "inheritedConstraint",
        "A constraint declared by an entity spans its sub-entities: an Admin clashes with an Account."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try stack.insert("Account", ["handle": "root"])
            try stack.save()
            let second = CheckStack(coordinator: stack.coordinator, store: stack.store)
            try second.insert("Admin", ["handle": "root", "level": .integer16(1)])
            let conflict = try expectConstraintConflict(in: second)
            try expectEqual(conflict.constraint.entityName, "Account", "the entity declaring the constraint")
            second.run { second.context.rollback() }
            try second.insert("Admin", ["handle": "admin", "level": .integer16(1)])
            try second.save()
            try expectEqual(try stack.objects("Account").count, 2, "the number of Accounts and Admins")
        }
    }

    static let storeRefusesDuplicates = category.check(
        "storeRefusesDuplicates",
        "The store itself refuses a change set that breaks a constraint, with StoreError constraintConflict "
            + "listing the clash, and writes nothing."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let ids = try stack.store.permanentIDs(forEntities: ["Member", "Member"])
            try stack.save(
                StoreChangeSet(inserted: [
                    .init(objectID: ids[0], values: ["email": "x@example.com"], expectedVersion: 0)
                ]))
            var caught: StoreError?
            do {
                try stack.save(
                    StoreChangeSet(inserted: [
                        .init(objectID: ids[1], values: ["email": "x@example.com"], expectedVersion: 0)
                    ]))
            } catch let error as StoreError where error.code == .constraintConflict {
                caught = error
            }
            let error = try require(caught, "The store saved a second Member with a saved Member's email.")
            try expectEqual(error.constraintConflicts.first?.storedObjectID, ids[0], "the saved object named")
            try expectEqual(error.constraintConflicts.first?.objectIDs, [ids[1]], "the refused object named")
            try expect(try stack.store.snapshot(for: ids[1]) == nil, "The refused Member was written.")
        }
    }

    static let updateIntoSavedValuesRefused = category.check(
        "updateIntoSavedValuesRefused",
        "Changing a saved object's keys to another saved object's fails under every policy: two saved objects "
            + "are never merged."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try stack.insert("Member", ["email": "a@example.com", "name": "A"])
            let second = try stack.insert("Member", ["email": "b@example.com", "name": "B"])
            try stack.save()
            try stack.run {
                stack.context.mergePolicy = .mergeByPropertyObjectTrump
                try second.setValue("a@example.com", forKey: "email")
            }
            _ = try expectConstraintConflict(in: stack)
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            let members = try reader.objects("Member", sortedBy: [FetchSortDescriptor("email")])
            let emails = try reader.run { try members.map { try $0.value(forKey: "email") } }
            try expectEqual(emails, [.string("a@example.com"), .string("b@example.com")], "the saved emails")
        }
    }

    static let upsertObjectTrump = category.check(
        "upsertObjectTrump",
        "Under mergeByPropertyObjectTrump, a new object clashing with a saved one takes its ID; the keys it set "
            + "win, the others keep the saved values, and to-many members join."
    ) { harness in
        try expectUpsert(under: .mergeByPropertyObjectTrump, keepsName: "New", harness)
    }

    static let upsertStoreTrump = category.check(
        "upsertStoreTrump",
        "Under mergeByPropertyStoreTrump, a new object clashing with a saved one takes its ID and its saved "
            + "values; to-many members join."
    ) { harness in
        try expectUpsert(under: .mergeByPropertyStoreTrump, keepsName: "Old", harness)
    }

    /// Saves Member ada@example.com ("Old"), then inserts it again as "New" with a Badge from a
    /// second context under `policy`: the new object must take the saved ID and end named
    /// `name`, with both badges.
    private static func expectUpsert(
        under policy: MergePolicy, keepsName name: String, _ harness: CheckHarness
    ) throws {
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let saved = try seedMember(in: stack)
            let second = CheckStack(coordinator: stack.coordinator, store: stack.store)
            second.run { second.context.mergePolicy = policy }
            let member = try second.insert("Member", ["email": "ada@example.com", "name": "New"])
            let badge = try second.insert("Badge", ["name": "gold"])
            try second.run { try badge.setObject(member, forKey: "member") }
            try second.save()
            try second.run {
                try expectEqual(member.objectID, saved, "the upserted object's ID")
                try expectEqual(try member.value(forKey: "name"), .string(name), "the upserted object's name")
            }
            try expectUpserted(saved, name: name, visits: .integer32(3), badges: ["gold", "silver"], in: stack)
        }
    }

    static let duplicatesInOneSaveMerged = category.check(
        "duplicatesInOneSaveMerged",
        "Under mergeByPropertyObjectTrump, objects of one save with the same keys become one: the first keeps "
            + "its identity, takes the last one's values, and gathers their to-many members; the other leaves "
            + "the context."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            stack.run { stack.context.mergePolicy = .mergeByPropertyObjectTrump }
            let first = try stack.insert("Member", ["email": "a@example.com", "name": "First"])
            let last = try stack.insert("Member", ["email": "a@example.com", "name": "Last"])
            let one = try stack.insert("Badge", ["name": "one"])
            let two = try stack.insert("Badge", ["name": "two"])
            try stack.run {
                try one.setObject(first, forKey: "member")
                try two.setObject(last, forKey: "member")
            }
            try stack.save()
            try stack.run {
                try expect(last.managedObjectContext == nil, "The merged-away Member is still in the context.")
                try expect(!first.objectID.isTemporary, "The kept Member has no permanent ID.")
            }
            try expectUpserted(first.objectID, name: "Last", visits: .null, badges: ["one", "two"], in: stack)
        }
    }

    static let registeredObjectAbsorbsInsert = category.check(
        "registeredObjectAbsorbsInsert",
        "When the context already holds the saved object, a clashing new object is merged into it "
            + "(mergeByPropertyObjectTrump) and leaves the context."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let saved = try seedMember(in: stack)
            stack.run { stack.context.mergePolicy = .mergeByPropertyObjectTrump }
            let existing = try stack.run { try stack.context.existingObject(with: saved) }
            let member = try stack.insert("Member", ["email": "ada@example.com", "name": "New"])
            try stack.save()
            try stack.run {
                try expect(member.managedObjectContext == nil, "The merged-away Member is still in the context.")
                try expectEqual(try existing.value(forKey: "name"), .string("New"), "the kept Member's name")
            }
            try expectUpserted(saved, name: "New", visits: .integer32(3), badges: ["silver"], in: stack)
        }
    }

    static let keysPassedOnWithinOneSave = category.check(
        "keysPassedOnWithinOneSave",
        "One save may pass constrained keys between objects — two saved objects swap theirs, a new object takes "
            + "the keys a saved one leaves, another the keys of a deleted one — as only the saved result is "
            + "checked, whatever order the store writes the objects in."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let ann = try stack.insert("Member", ["email": "a@example.com", "name": "Ann"])
            let bo = try stack.insert("Member", ["email": "b@example.com", "name": "Bo"])
            let cy = try stack.insert("Member", ["email": "c@example.com", "name": "Cy"])
            let di = try stack.insert("Member", ["email": "d@example.com", "name": "Di"])
            try stack.save()
            try stack.insert("Member", ["email": "c@example.com", "name": "Ed"])
            try stack.insert("Member", ["email": "d@example.com", "name": "Flo"])
            try stack.run {
                try ann.setValue("b@example.com", forKey: "email")
                try bo.setValue("a@example.com", forKey: "email")
                try cy.setValue("e@example.com", forKey: "email")
                try stack.context.delete(di)
            }
            try stack.save()
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            let members = try reader.objects("Member", sortedBy: [FetchSortDescriptor("name")])
            let emails = try reader.run { try members.map { try $0.value(forKey: "email") } }
            let expected = ["b", "a", "e", "c", "d"].map { AttributeValue.string("\($0)@example.com") }
            try expectEqual(emails, expected, "the emails of Ann, Bo, Cy, Ed and Flo")
        }
    }

    // MARK: - Helpers

    /// Saves Member ada@example.com ("Old", 3 visits) with Badge "silver"; returns its ID.
    private static func seedMember(in stack: CheckStack) throws -> ObjectID {
        let member = try stack.insert("Member", ["email": "ada@example.com", "name": "Old", "visits": .integer32(3)])
        let badge = try stack.insert("Badge", ["name": "silver"])
        try stack.run { try badge.setObject(member, forKey: "member") }
        try stack.save()
        return stack.run { member.objectID }
    }

    /// Saves `stack`'s context, which must fail with one constraint conflict; returns it.
    private static func expectConstraintConflict(in stack: CheckStack) throws -> ConstraintConflict {
        var caught: ContextError?
        do {
            try stack.save()
        } catch let error as ContextError where error.code == .constraintConflict {
            caught = error
        }
        let error = try require(caught, "The save broke a uniqueness constraint without failing.")
        try expectEqual(error.constraintConflicts.count, 1, "the number of constraint conflicts")
        stack.run { stack.context.rollback() }
        return error.constraintConflicts[0]
    }

    /// Checks, from a new coordinator, that the store has exactly one Member with
    /// ada@example.com or a@example.com: `id`, with `name`, `visits` and badges named `badges`.
    private static func expectUpserted(
        _ id: ObjectID, name: String, visits: AttributeValue, badges: [String], in stack: CheckStack
    ) throws {
        let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
        let members = try reader.objects("Member")
        try expectEqual(members.count, 1, "the number of saved Members")
        try reader.run {
            let member = members[0]
            try expectEqual(member.objectID, id, "the saved Member's ID")
            try expectEqual(try member.value(forKey: "name"), .string(name), "the saved Member's name")
            try expectEqual(try member.value(forKey: "visits"), visits, "the saved Member's visits")
            let names = try member.objects(forKey: "badges").map { badge -> String in
                guard case .string(let name) = try badge.value(forKey: "name") else { return "" }
                return name
            }
            try expectEqual(names.sorted(), badges, "the saved Member's badge names")
        }
        try expectEqual(try reader.objects("Badge").count, badges.count, "the number of saved Badges")
    }

    /// Checks that the store's Members are named `names`, in name order.
    private static func expectMembers(_ names: [String], in stack: CheckStack) throws {
        let saved = try stack.objects("Member", sortedBy: [FetchSortDescriptor("name")])
        let found = try stack.run { try saved.map { try $0.value(forKey: "name") } }
        try expectEqual(found, names.map { AttributeValue.string($0) }, "the saved Members' names")
    }
}
