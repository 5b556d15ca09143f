import Foundation
import Strata

/// AA: relationships across stores (docs/CROSS-STORE-RELATIONSHIPS.md). Cities in one store,
/// visits in another, related both ways: the store under test holds one side and the
/// in-memory store the other, in each direction. Run only for stores declaring
/// ``StoreCapabilities/crossStoreRelationships``.
enum CrossStoreRelationshipChecks {
    static var all: [ConformanceCheck] {
        [referencesKeptBothWays, comparisonsWithReferences, keyPathsAcrossStores, deleteRulesAcrossStores]
    }

    private static let category = ConformanceCategory.crossStoreRelationships
    private static let requirement = ConformanceRequirement.capabilities(.crossStoreRelationships)

    /// Cities in configuration `Atlas`, visits in `Diary`; removing a city removes its visits.
    static let model: ManagedObjectModel = ManagedObjectModel {
        EntityDescription("City") {
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("visits", destination: "Visit", inverse: "city", deleteRule: .cascade)
        }
        EntityDescription("Visit") {
            AttributeDescription("note", .string)
            RelationshipDescription.toOne("city", destination: "City", inverse: "visits")
        }
        ConfigurationDescription("Atlas", entities: ["City"])
        ConfigurationDescription("Diary", entities: ["Visit"])
    }

    /// A coordinator with the store under test (named `name`) holding `configuration` and an
    /// in-memory store holding the other one.
    private struct Pair {
        let harness: CheckHarness
        let name: String
        let configuration: String
        let coordinator: PersistentStoreCoordinator
        private(set) var store: any IncrementalStore

        init(_ harness: CheckHarness, holding configuration: String) throws {
            self.harness = harness
            self.name = "crossStore-\(configuration)"
            self.configuration = configuration
            coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [harness.suite.storeType])
            store = try harness.openStore(name, configuration: configuration, in: coordinator)
            try coordinator.addStore(
                type: StoreType.inMemory.name, configuration: configuration == "Atlas" ? "Diary" : "Atlas")
        }

        /// A new stack on the coordinator: a new context.
        func stack() -> CheckStack { CheckStack(coordinator: coordinator, store: store) }

        /// Removes the store under test and adds it again: what it answers now comes from what
        /// it kept.
        mutating func reopen() throws {
            try coordinator.remove(store)
            store = try harness.openStore(name, configuration: configuration, in: coordinator)
        }

        /// Saves cities `names`, each with a visit noted with the city's name in lower case.
        func saveCities(_ names: [String]) throws {
            let stack = stack()
            for name in names {
                let city = try stack.insert("City", ["name": .string(name)])
                let visit = try stack.insert("Visit", ["note": .string(name.lowercased())])
                try stack.run { try visit.setObject(city, forKey: "city") }
            }
            try stack.save()
        }

        func remove() throws { try coordinator.remove(store) }
    }

    /// Runs `body` twice, with the store under test holding the cities and then the visits,
    /// after saving `cities` with a visit each; removes the store afterwards.
    private static func onEachSide(
        _ harness: CheckHarness, cities: [String], _ body: (inout Pair) throws -> Void
    ) throws {
        for configuration in ["Atlas", "Diary"] {
            var pair = try Pair(harness, holding: configuration)
            try pair.saveCities(cities)
            try body(&pair)
            try pair.remove()
        }
    }

    private static func names(_ objects: [ManagedObject], _ key: String, in stack: CheckStack) throws -> [String] {
        try objects.map { object in
            guard case .string(let text) = try stack.value(object, key) else { return "-" }
            return text
        }
    }

    static let referencesKeptBothWays = category.check(
        "referencesKeptBothWays",
        "A to-one and a to-many naming objects of another store read back the same IDs after reopening, "
            + "with the store under test on either side.",
        requires: requirement
    ) { harness in
        try onEachSide(harness, cities: ["Arcville", "Brookport"]) { pair in
            let configuration = pair.configuration
            try pair.reopen()
            let stack = pair.stack()
            let cities = try stack.objects("City", sortedBy: [FetchSortDescriptor("name")])
            let visits = try stack.objects("Visit", sortedBy: [FetchSortDescriptor("note")])
            try expectEqual(
                try stack.run { try visits.map { try $0.object(forKey: "city")?.objectID } },
                cities.map(\.objectID), "The cities of the visits, the store holding \(configuration)")
            try expectEqual(
                try stack.run { try cities.map { try $0.objects(forKey: "visits").map(\.objectID) } },
                visits.map { [$0.objectID] }, "The visits of the cities, the store holding \(configuration)")
        }
    }

    static let comparisonsWithReferences = category.check(
        "comparisonsWithReferences",
        "The store's own fetches compare a reference to another store's object with its ID: "
            + "`city == %@`, `city IN %@`, `ANY visits == %@`.",
        requires: requirement
    ) { harness in
        try onEachSide(harness, cities: ["Arcville", "Brookport"]) { pair in
            let configuration = pair.configuration
            try pair.reopen()
            let stack = pair.stack()
            let city = try require(try stack.objects("City", where: "name == 'Arcville'").first, "Arcville")
            let visit = try require(try stack.objects("Visit", where: "note == 'arcville'").first, "arcville's visit")
            let (entity, format, argument, expected) =
                configuration == "Diary"
                ? ("Visit", "city == %@", city.objectID, visit.objectID)
                : ("City", "ANY visits == %@", visit.objectID, city.objectID)
            for form in [format, format.replacingOccurrences(of: "== %@", with: "IN %@")] {
                let arguments: [any PredicateArgument] = form.contains("IN") ? [[argument]] : [argument]
                let request = StoreFetchRequest(
                    entityName: entity, predicate: try FetchPredicate(format: form, arguments: arguments),
                    resultType: .objectIDs)
                try expectEqual(
                    try pair.store.execute(request), .objectIDs([expected]), "The store's answer to '\(form)'")
            }
        }
    }

    static let keyPathsAcrossStores = category.check(
        "keyPathsAcrossStores",
        "`city.name == 'Arcville'`, `ANY visits.note == …` and a sort on `city.name` match as within one store.",
        requires: requirement
    ) { harness in
        try onEachSide(harness, cities: ["Brookport", "Arcville", "Cliffton"]) { pair in
            let configuration = pair.configuration
            let stack = pair.stack()
            let visits = try stack.objects(
                "Visit", where: "city.name BEGINSWITH 'A' OR city.name BEGINSWITH 'C'",
                sortedBy: [FetchSortDescriptor("city.name", ascending: false)])
            try expectEqual(
                try names(visits, "note", in: stack), ["cliffton", "arcville"],
                "Visits by city name, the store holding \(configuration)")
            let cities = try stack.objects("City", where: "ANY visits.note == 'brookport'")
            try expectEqual(
                try names(cities, "name", in: stack), ["Brookport"],
                "Cities by visit, the store holding \(configuration)")
        }
    }

    static let deleteRulesAcrossStores = category.check(
        "deleteRulesAcrossStores",
        "Deleting a city deletes its visits in the other store; deleting a visit removes it from its city's "
            + "visits; both hold after reopening.",
        requires: requirement
    ) { harness in
        try onEachSide(harness, cities: ["Arcville", "Brookport", "Cliffton"]) { pair in
            let configuration = pair.configuration
            let stack = pair.stack()
            try stack.run {
                try stack.context.delete(try stack.objects("City", where: "name == 'Arcville'")[0])
                try stack.context.delete(try stack.objects("Visit", where: "note == 'brookport'")[0])
                try stack.context.save()
            }
            try pair.reopen()
            let reader = pair.stack()
            let visits = try reader.objects("Visit")
            try expectEqual(try names(visits, "note", in: reader), ["cliffton"], "Visits left")
            let brookport = try require(try reader.objects("City", where: "name == 'Brookport'").first, "Brookport")
            try expectEqual(
                try reader.run { try brookport.objects(forKey: "visits").count }, 0,
                "Brookport's visits, the store holding \(configuration)")
        }
    }
}
