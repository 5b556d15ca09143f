import Foundation
import Strata

/// O: moving a store's objects to the in-memory store and back through the coordinator's
/// migration keeps every value, relationship and user key, and leaves the source untouched;
/// model-version migrations are in ``ModelVersionChecks``.
enum MigrationChecks {
    static var all: [ConformanceCheck] {
        [roundTripThroughTheInMemoryStore, sourceFileUntouched] + ModelVersionChecks.all
    }

    private static let category = ConformanceCategory.migration

    static let roundTripThroughTheInMemoryStore = category.check(
        "roundTripThroughTheInMemoryStore",
        "Migrating to the in-memory store and back keeps values, relationships, user keys and the store's identifier."
    ) { harness in
        let coordinator = try harness.makeCoordinator()
        let source = try harness.openStore(configuration: ConformanceModel.graph, in: coordinator)
        let stack = CheckStack(coordinator: coordinator, store: source)
        try fill(stack)
        try coordinator.setUserInfo(["owner": "Ada", "revision": .integer64(3)], for: source)
        let expected = try contents(of: stack)

        let memory = try coordinator.migratePersistentStore(source, to: nil, type: StoreType.inMemory.name)
        try expectEqual(
            try contents(of: CheckStack(coordinator: coordinator, store: memory)), expected,
            "The objects in the in-memory copy")
        let back = try coordinator.migratePersistentStore(
            memory, to: harness.storeURL("back"), type: harness.suite.storeType.name, options: harness.suite.options)
        try expectEqual(
            try contents(of: CheckStack(coordinator: coordinator, store: back)), expected,
            "The objects after migrating back")
        try expectEqual(
            back.metadata.userInfo, ["owner": "Ada", "revision": .integer64(3)], "User keys after migrating back")
        try expectEqual(back.identifier, source.identifier, "The identifier after migrating back")
        try expectEqual(
            back.metadata.storeIdentifier, source.identifier, "The metadata's identifier after migrating back")
        try coordinator.remove(back)
    }

    static let sourceFileUntouched = category.check(
        "sourceFileUntouched", "Migrating a store leaves its file byte for byte as it was.", requires: .fileStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        try harness.withStore(configuration: ConformanceModel.graph) { try fill($0) }
        let before = try Data(contentsOf: url)
        let coordinator = try harness.makeCoordinator()
        let source = try harness.openStore(configuration: ConformanceModel.graph, in: coordinator)
        let copy = try coordinator.migratePersistentStore(source, to: nil, type: StoreType.inMemory.name)
        try coordinator.remove(copy)
        try expect(try Data(contentsOf: url) == before, "Migrating the store changed its file at \(url.path).")
    }

    /// Saves three people with a team, friends, a manager and a passport.
    private static func fill(_ stack: CheckStack) throws {
        let ada = try stack.insert("Person", ["serial": 1, "name": "Ada", "age": 36])
        let grace = try stack.insert("Person", ["serial": 2, "name": "Grace", "age": .null])
        let alan = try stack.insert("Person", ["serial": 3, "name": "Alan", "age": 41])
        let team = try stack.insert("Team", ["serial": 10, "name": "Engines"])
        let passport = try stack.insert("Passport", ["number": "X-1"])
        try stack.run {
            try team.setObjects([grace, ada, alan], forKey: "members")
            try grace.setObject(ada, forKey: "manager")
            try ada.setObjects([alan, grace], forKey: "friends")
            try ada.setObject(passport, forKey: "passport")
        }
        try stack.save()
    }

    /// Every person and team described by serial: attributes and relationships by serial.
    private static func contents(of stack: CheckStack) throws -> [String] {
        func serials(_ objects: [ManagedObject]) throws -> String {
            try objects.map { "\(try $0.value(forKey: "serial"))" }.joined(separator: ",")
        }
        return try stack.run {
            let people = try stack.context.fetch(try stack.request("Person", sortedBy: [FetchSortDescriptor("serial")]))
            let teams = try stack.context.fetch(try stack.request("Team"))
            return try people.map { person in
                let friends = try person.objects(forKey: "friends").map { "\(try $0.value(forKey: "serial"))" }.sorted()
                return [
                    "\(try person.value(forKey: "serial"))", "\(try person.value(forKey: "name"))",
                    "\(try person.value(forKey: "age"))", "manager \(try person.value(forKeyPath: "manager.serial"))",
                    "team \(try person.value(forKeyPath: "team.serial"))",
                    "passport \(try person.value(forKeyPath: "passport.number"))",
                    "friends \(friends.joined(separator: ","))",
                ].joined(separator: " ")
            }
                + teams.map {
                    "team \(try $0.value(forKey: "name")) members \(try serials($0.objects(forKey: "members")))"
                }
        }
    }
}
