import Foundation
import Strata

/// The IDs of the objects a check saved, by name (or passport number), so that what reads back
/// after reopening is told, and reported, by name.
struct Named {
    private let ids: [String: ObjectID]
    private let names: [ObjectID: String]

    init(_ ids: [String: ObjectID]) {
        self.ids = ids
        names = Dictionary(ids.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The saved `objects`, by their names; call it after the save, when their IDs are permanent.
    init(_ objects: [ManagedObject], in stack: CheckStack) throws {
        let pairs = try stack.run { try objects.map { (try RelationshipChecks.name(of: $0), $0.objectID) } }
        self.init(Dictionary(pairs, uniquingKeysWith: { first, _ in first }))
    }

    /// The ID of the object called `name`.
    func id(_ name: String) throws -> ObjectID {
        try require(ids[name], "The check saved no object called '\(name)'.")
    }

    /// The name of the saved object with `id`, or the ID itself when the check saved no such object.
    func name(of id: ObjectID) -> String { names[id] ?? id.uriString }
}

extension RelationshipChecks {
    /// Saves the objects `body` inserts into the Graph store and returns them by name.
    static func save(in harness: CheckHarness, _ body: (CheckStack) throws -> [ManagedObject]) throws -> Named {
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let objects = try body(stack)
            try stack.save()
            return try Named(objects, in: stack)
        }
    }

    /// Reopens the Graph store, runs `body` on the context's queue with a lookup of saved objects
    /// by name, and saves.
    static func change(
        in harness: CheckHarness, _ saved: Named,
        _ body: (CheckStack, (String) throws -> ManagedObject) throws -> Void
    ) throws {
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try stack.run {
                try body(stack) { name in try stack.context.existingObject(with: saved.id(name)) }
            }
            try stack.save()
        }
    }

    /// Inserts one `Person` per name, with serials from 1.
    static func insertPeople(_ names: [String], in stack: CheckStack) throws -> [ManagedObject] {
        try names.enumerated().map { index, name in
            try stack.insert("Person", ["serial": .integer64(Int64(index + 1)), "name": .string(name)])
        }
    }

    /// Inserts one `Team` per name, with serials from 101.
    static func insertTeams(_ names: [String], in stack: CheckStack) throws -> [ManagedObject] {
        try names.enumerated().map { index, name in
            try stack.insert("Team", ["serial": .integer64(Int64(index + 101)), "name": .string(name)])
        }
    }

    /// Saves the team "Engines" with `members` in order, and a spare person "Eve".
    static func savedTeam(_ members: [String], in harness: CheckHarness) throws -> Named {
        try save(in: harness) { stack in
            let people = try insertPeople(members + ["Eve"], in: stack)
            let teams = try insertTeams(["Engines"], in: stack)
            try stack.run { try teams[0].setObjects(Array(people.dropLast()), forKey: "members") }
            return people + teams
        }
    }

    /// The object's name, or its number for a `Passport`; call it on the context's queue.
    static func name(of object: ManagedObject) throws -> String {
        let key = object.entity.attributesByName["name"] == nil ? "number" : "name"
        return try object.value(forKey: key).get(String.self) ?? "(no \(key))"
    }

    /// Checks that the to-one `key` of the object called `owner` points at the object called
    /// `expected` (or is empty): in the store's snapshot, and through a context.
    static func expectTarget(
        _ key: String, of owner: String, is expected: String?, _ saved: Named, in stack: CheckStack
    ) throws {
        try expectStoredTarget(key, of: owner, is: expected, saved, in: stack)
        let ownerID = try saved.id(owner)
        let read = try stack.run {
            try stack.context.existingObject(with: ownerID).object(forKey: key).map { try name(of: $0) }
        }
        try expectEqual(
            read ?? "nothing", expected ?? "nothing", "\(ownerID.entityName) '\(owner)'.\(key) read through a context")
    }

    /// Checks that the store's snapshot of the object called `owner` holds the ID of the object
    /// called `expected` (or null) for the to-one `key`.
    static func expectStoredTarget(
        _ key: String, of owner: String, is expected: String?, _ saved: Named, in stack: CheckStack
    ) throws {
        let ownerID = try saved.id(owner)
        let subject = "snapshot(for: \(ownerID.entityName) '\(owner)').values[\"\(key)\"]"
        let snapshot = try require(
            try stack.store.snapshot(for: ownerID),
            "The store has no snapshot of \(ownerID.entityName) '\(owner)' (\(ownerID)).")
        let expectedValue: AttributeValue = try expected.map { .objectID(try saved.id($0)) } ?? .null
        func describe(_ value: AttributeValue?) -> String {
            switch value {
            case nil: "no value (a to-one relationship must be present, null when empty)"
            case .objectID(let id)?: "the ID of '\(saved.name(of: id))'"
            case .null?: "null"
            case let other?: "\(other)"
            }
        }
        let stored = snapshot.values[key]
        try expect(
            stored == expectedValue, "\(subject): expected \(describe(expectedValue)), got \(describe(stored)).")
    }

    /// Checks that the to-many `key` of the object called `owner` holds the objects called
    /// `expected` (in that order when `ordered`): through `relatedObjectIDs(of:relationship:)`,
    /// and through a context.
    static func expectMembers(
        _ key: String, of owner: String, are expected: [String], ordered: Bool = false, _ saved: Named,
        in stack: CheckStack
    ) throws {
        let ownerID = try saved.id(owner)
        let subject = "\(ownerID.entityName) '\(owner)'.\(key)"
        let stored = try stack.store.relatedObjectIDs(of: ownerID, relationship: key).map(saved.name(of:))
        let read = try stack.run {
            try stack.context.existingObject(with: ownerID).objects(forKey: key).map { try name(of: $0) }
        }
        if ordered {
            try expectEqual(stored, expected, "relatedObjectIDs of \(subject)")
            try expectEqual(read, expected, "\(subject) read through a context")
        } else {
            try expectEqual(stored.sorted(), expected.sorted(), "relatedObjectIDs of \(subject) (in any order)")
            try expectEqual(read.sorted(), expected.sorted(), "\(subject) read through a context (in any order)")
        }
    }

    /// Checks that the store has no snapshot of the objects called `names`.
    static func expectGone(_ names: [String], _ saved: Named, in stack: CheckStack) throws {
        for name in names {
            let id = try saved.id(name)
            try expect(
                try stack.store.snapshot(for: id) == nil,
                "The deleted \(id.entityName) '\(name)' (\(id)) still has a snapshot after reopening.")
        }
    }

    /// How many objects of `entity` (sub-entities included) the store holds, asked through `execute`.
    static func storedCount(_ entity: String, in stack: CheckStack) throws -> Int {
        try stack.store.fetchedCount(StoreFetchRequest(entityName: entity))
    }
}
