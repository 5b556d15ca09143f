import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// Relationships between objects of two stores: cities in one, visits in the other, related
/// both ways, with every built-in store type that keeps references across stores on one side
/// and the in-memory store on the other.
@Suite struct CrossStoreRelationshipTests {
    static func model(citiesDelete rule: RelationshipDescription.DeleteRule = .cascade) -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("City") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("visits", destination: "Visit", inverse: "city", deleteRule: rule)
            }
            EntityDescription("Visit") {
                AttributeDescription("note", .string)
                RelationshipDescription.toOne("city", destination: "City", inverse: "visits")
            }
            ConfigurationDescription("Atlas", entities: ["City"])
            ConfigurationDescription("Diary", entities: ["Visit"])
        }
    }

    static let fileTypes = ["SQLite", "LMDB", "XML", "Binary"]

    /// A coordinator with one store of type `type` in `folder` and one in-memory store; the
    /// file store holds the cities when `citiesInFile`, else the visits.
    struct Stack {
        let folder: TemporaryDirectory
        let type: String
        let fileConfiguration: String
        let coordinator: PersistentStoreCoordinator

        init(
            type: String, citiesInFile: Bool, model: ManagedObjectModel = CrossStoreRelationshipTests.model()
        ) throws {
            folder = try TemporaryDirectory()
            self.type = type
            fileConfiguration = citiesInFile ? "Atlas" : "Diary"
            coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
            try addFileStore()
            try coordinator.addStore(type: "InMemory", configuration: citiesInFile ? "Diary" : "Atlas")
        }

        var fileStore: any IncrementalStore { coordinator.stores.first { $0.typeName == type }! }

        func addFileStore() throws {
            try coordinator.addStore(type: type, configuration: fileConfiguration, at: folder.file("store"))
        }

        /// Removes the file store and adds it again: what it hands back now comes from its file.
        func reopenFileStore() throws {
            try coordinator.remove(fileStore)
            try addFileStore()
        }

        /// Saves cities `names`, each with one visit noted with the city's name in lower case.
        @discardableResult
        func saveCities(_ names: [String]) throws -> ManagedObjectContext {
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.performAndWait {
                for name in names {
                    let city = try context.insertNewObject(forEntityName: "City")
                    try city.setValue(.string(name), forKey: "name")
                    let visit = try context.insertNewObject(forEntityName: "Visit")
                    try visit.setValue(.string(name.lowercased()), forKey: "note")
                    try visit.setObject(city, forKey: "city")
                }
                try context.save()
            }
            return context
        }

        /// A new context on the coordinator.
        func context() -> ManagedObjectContext { ManagedObjectContext(coordinator: coordinator) }

        /// The objects of `entity` matching `format` in `context`, sorted by `key` (by default
        /// the name or note); call it on the context's queue.
        func fetch(
            _ entity: String, _ format: String = "TRUEPREDICATE", sortedBy key: String? = nil,
            in context: ManagedObjectContext
        ) throws -> [ManagedObject] {
            var request = FetchRequest<ManagedObject>(entityName: entity)
            request.predicate = try FetchPredicate(format: format)
            request.sortDescriptors = [FetchSortDescriptor(key ?? (entity == "City" ? "name" : "note"))]
            return try Array(context.fetch(request))
        }
    }

    static func string(_ object: ManagedObject?, _ key: String) throws -> String? {
        guard case .string(let text)? = try object?.value(forKey: key) else { return nil }
        return text
    }

    @Test(arguments: fileTypes, [true, false])
    func bothSidesKeepTheirReferencesThroughReopening(type: String, citiesInFile: Bool) throws {
        let stack = try Stack(type: type, citiesInFile: citiesInFile)
        try stack.saveCities(["Arcville", "Brookport"])
        try stack.reopenFileStore()
        let context = stack.context()
        try context.performAndWait {
            let visits = try stack.fetch("Visit", in: context)
            let cities = try stack.fetch("City", in: context)
            #expect(try visits.map { try Self.string($0.object(forKey: "city"), "name") } == ["Arcville", "Brookport"])
            #expect(try cities.map { try $0.objects(forKey: "visits").map(\.objectID) } == visits.map { [$0.objectID] })
            #expect(visits[0].objectID.storeIdentifier != cities[0].objectID.storeIdentifier)
        }
    }

    @Test(arguments: fileTypes, [true, false])
    func movingAnObjectUpdatesBothSides(type: String, citiesInFile: Bool) throws {
        let stack = try Stack(type: type, citiesInFile: citiesInFile)
        let context = try stack.saveCities(["Arcville", "Brookport"])
        try context.performAndWait {
            let visits = try stack.fetch("Visit", in: context)
            let cities = try stack.fetch("City", in: context)
            try visits[0].setObject(cities[1], forKey: "city")
            try context.save()
        }
        try stack.reopenFileStore()
        let reader = stack.context()
        try reader.performAndWait {
            let cities = try stack.fetch("City", in: reader)
            #expect(try cities[0].objects(forKey: "visits").isEmpty)
            #expect(
                try cities[1].objects(forKey: "visits").map { try Self.string($0, "note") ?? "" }.sorted() == [
                    "arcville", "brookport",
                ])
        }
    }

    @Test(arguments: fileTypes)
    func deleteRulesReachTheOtherStore(type: String) throws {
        let stack = try Stack(type: type, citiesInFile: true)
        let context = try stack.saveCities(["Arcville", "Brookport"])
        try context.performAndWait {
            let cities = try stack.fetch("City", in: context)
            try context.delete(cities[0])
            try context.save()
        }
        let reader = stack.context()
        try reader.performAndWait {
            let notes = try stack.fetch("Visit", in: reader).map { try Self.string($0, "note") }
            #expect(notes == ["brookport"])
        }
        try context.performAndWait {
            try context.delete(try stack.fetch("Visit", in: context)[0])
            try context.save()
        }
        try stack.reopenFileStore()
        let again = stack.context()
        try again.performAndWait {
            let remaining = try stack.fetch("City", in: again)
            #expect(try remaining.map { try Self.string($0, "name") } == ["Brookport"])
            #expect(try remaining[0].objects(forKey: "visits").isEmpty)
        }
    }

    @Test func aDenyRuleAcrossStoresRefusesTheDeletion() throws {
        let stack = try Stack(type: "LMDB", citiesInFile: true, model: Self.model(citiesDelete: .deny))
        let context = try stack.saveCities(["Arcville"])
        try context.performAndWait {
            try context.delete(try stack.fetch("City", in: context)[0])
            let error = #expect(throws: ContextError.self) { try context.save() }
            #expect(error?.code == .validation)
        }
    }

    @Test func aMissingStoreGivesAnInaccessibleFaultNamingItUntilItIsAddedAgain() throws {
        let stack = try Stack(type: "LMDB", citiesInFile: true)
        try stack.saveCities(["Arcville"])
        let cityStore = stack.fileStore
        try stack.coordinator.remove(cityStore)
        let reader = stack.context()
        try reader.performAndWait {
            let visits = try stack.fetch("Visit", in: reader)
            let city = try visits[0].object(forKey: "city")
            let error = #expect(throws: ContextError.self) { _ = try city?.value(forKey: "name") }
            #expect(error?.code == .inaccessibleFault)
            #expect(error?.message.contains(cityStore.identifier) == true)
            #expect(try Self.string(visits[0], "note") == "arcville")
        }
        try stack.addFileStore()
        let again = stack.context()
        try again.performAndWait {
            let city = try stack.fetch("Visit", in: again)[0].object(forKey: "city")
            #expect(try Self.string(city, "name") == "Arcville")
        }
    }
}

extension CrossStoreRelationshipTests {
    @Test func aChildContextFiringAFaultOfAMissingStoreGetsAnInaccessibleFaultToo() throws {
        let stack = try Stack(type: "LMDB", citiesInFile: true)
        try stack.saveCities(["Arcville"])
        let cityStore = stack.fileStore
        try stack.coordinator.remove(cityStore)
        let parent = stack.context()
        let child = ManagedObjectContext(parent: parent)
        try child.performAndWait {
            let city = try stack.fetch("Visit", in: child)[0].object(forKey: "city")
            let error = #expect(throws: ContextError.self) { _ = try city?.value(forKey: "name") }
            #expect(error?.code == .inaccessibleFault)
            #expect(error?.message.contains(cityStore.identifier) == true)
        }
    }

    @Test(arguments: fileTypes, [true, false])
    func predicatesAndSortsFollowKeyPathsAcrossStores(type: String, citiesInFile: Bool) throws {
        let stack = try Stack(type: type, citiesInFile: citiesInFile)
        let context = try stack.saveCities(["Arcville", "Brookport", "Cliffton"])
        try context.performAndWait {
            let moved = try stack.fetch("Visit", "note == 'cliffton'", in: context)[0]
            try moved.setObject(try stack.fetch("City", "name == 'Arcville'", in: context)[0], forKey: "city")
            try context.save()
        }
        let reader = stack.context()
        try reader.performAndWait {
            func notes(_ format: String, sortedBy key: String? = nil) throws -> [String] {
                try stack.fetch("Visit", format, sortedBy: key, in: reader).map { try Self.string($0, "note") ?? "" }
            }
            func names(_ format: String) throws -> [String] {
                try stack.fetch("City", format, in: reader).map { try Self.string($0, "name") ?? "" }
            }
            #expect(try notes("city.name == 'Arcville'") == ["arcville", "cliffton"])
            #expect(try notes("city.name BEGINSWITH 'B' OR note == 'arcville'") == ["arcville", "brookport"])
            #expect(try notes("NOT city.name == 'Arcville'") == ["brookport"])
            #expect(try notes("city.name == 'Nowhere'").isEmpty)
            #expect(try names("ANY visits.note == 'cliffton'") == ["Arcville"])
            #expect(try names("ALL visits.note BEGINSWITH 'b'") == ["Brookport", "Cliffton"])
            #expect(try names("visits.@count == 0") == ["Cliffton"])
            #expect(try notes("TRUEPREDICATE", sortedBy: "city.name") == ["arcville", "cliffton", "brookport"])
            var counted = FetchRequest<ManagedObject>(entityName: "Visit")
            counted.predicate = try FetchPredicate(format: "city.name == 'Arcville'")
            #expect(try reader.count(for: counted) == 2)
            let error = #expect(throws: ContextError.self) { try notes("city.name == note") }
            #expect(error?.code == .invalidRequest)
        }
    }
}

extension CrossStoreRelationshipTests {
    /// Visits and their trips in one configuration, each trip's city in the other.
    static func tripModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("City") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("trips", destination: "Trip", inverse: "city")
            }
            EntityDescription("Trip") {
                AttributeDescription("title", .string)
                RelationshipDescription.toOne("city", destination: "City", inverse: "trips")
                RelationshipDescription.toMany("visits", destination: "Visit", inverse: "trip")
            }
            EntityDescription("Visit") {
                AttributeDescription("note", .string)
                RelationshipDescription.toOne("trip", destination: "Trip", inverse: "visits")
            }
            ConfigurationDescription("Atlas", entities: ["City"])
            ConfigurationDescription("Diary", entities: ["Trip", "Visit"])
        }
    }

    @Test(arguments: fileTypes, [true, false])
    func aKeyPathLeavingTheStoreAfterItsFirstStepIsAnsweredInTwoSteps(type: String, citiesInFile: Bool) throws {
        let stack = try Stack(type: type, citiesInFile: citiesInFile, model: Self.tripModel())
        let context = stack.context()
        try context.performAndWait {
            let cities = try ["Arcville", "Brookport"].map { name in
                let city = try context.insertNewObject(forEntityName: "City")
                try city.setValue(.string(name), forKey: "name")
                return city
            }
            // Visit a's trip is in Arcville, b's in Brookport, c's trip has no city, d has no trip.
            let trips = try [cities[0], cities[1], nil].map { city in
                let trip = try context.insertNewObject(forEntityName: "Trip")
                try trip.setObject(city, forKey: "city")
                return trip
            }
            for (note, trip) in zip(["a", "b", "c", "d"], trips + [nil]) {
                let visit = try context.insertNewObject(forEntityName: "Visit")
                try visit.setValue(.string(note), forKey: "note")
                try visit.setObject(trip, forKey: "trip")
            }
            try context.save()
        }
        let reader = stack.context()
        let found: [[String]] = try reader.performAndWait {
            let queries = [
                ("trip.city.name == 'Arcville'", "note"), ("trip.city.name != 'Arcville'", "note"),
                ("trip.city.name == nil", "note"), ("trip.city != nil", "trip.city.name"),
                // Through the to-many trip.visits: an ANY over the trips' cities.
                ("ANY trip.visits.trip.city.name == 'Brookport'", "note"),
                ("ANY trip.visits.trip.city.name == nil", "note"),
                ("NOT (ANY trip.visits.trip.city.name BEGINSWITH 'A')", "note"),
            ]
            return try queries.map { format, key in
                try stack.fetch("Visit", format, sortedBy: key, in: reader).map { try Self.string($0, "note") ?? "" }
            }
        }
        #expect(found == [["a"], ["b", "c", "d"], ["c", "d"], ["a", "b"], ["b"], ["c"], ["b", "c", "d"]])
        let error = reader.performAndWait {
            #expect(throws: ContextError.self) {
                try stack.fetch("Visit", "ALL trip.visits.trip.city.name == 'Arcville'", in: reader)
            }
        }
        #expect(error?.code == .invalidRequest)
    }

    @Test(arguments: [true, false])
    func movingAStoreToAnotherTypeKeepsTheReferences(citiesInFile: Bool) throws {
        let stack = try Stack(type: "LMDB", citiesInFile: citiesInFile)
        // The first city and its visit go, so that numbering the rest afresh would change them.
        let context = try stack.saveCities(["Aston", "Arcville", "Brookport"])
        try context.performAndWait {
            try context.delete(try stack.fetch("City", "name == 'Aston'", in: context)[0])
            try context.save()
        }
        let moved = try stack.coordinator.migratePersistentStore(
            stack.fileStore, to: stack.folder.file("moved.xml"), type: "XML")
        #expect(moved.typeName == "XML")
        let reader = stack.context()
        try reader.performAndWait {
            let visits = try stack.fetch("Visit", in: reader)
            #expect(try visits.map { try Self.string($0.object(forKey: "city"), "name") } == ["Arcville", "Brookport"])
            let cities = try stack.fetch("City", in: reader)
            #expect(try cities.map { try $0.objects(forKey: "visits").map(\.objectID) } == visits.map { [$0.objectID] })
        }
    }
}

extension CrossStoreRelationshipTests {
    @Test(arguments: [true, false])
    func anEmptyToOneMatchesAsWithinOneStore(citiesInFile: Bool) throws {
        let stack = try Stack(type: "LMDB", citiesInFile: citiesInFile)
        let context = try stack.saveCities(["Arcville", "Brookport"])
        try context.performAndWait {
            let alone = try context.insertNewObject(forEntityName: "Visit")
            try alone.setValue(.string("alone"), forKey: "note")
            try context.save()
        }
        let reader = stack.context()
        let found: [[String]] = try reader.performAndWait {
            try ["city.name != 'Arcville'", "city.name == nil", "city.name == 'Arcville'"].map { format in
                try stack.fetch("Visit", format, in: reader).map { try Self.string($0, "note") ?? "" }
            }
        }
        #expect(found == [["alone", "brookport"], ["alone"], ["arcville"]])
    }

    @Test func theFirstStepSeesPendingChangesOnlyWhenTheRequestDoes() throws {
        let stack = try Stack(type: "LMDB", citiesInFile: true)
        let context = try stack.saveCities(["Arcville"])
        try context.performAndWait {
            try stack.fetch("City", in: context)[0].setValue(.string("Renamed"), forKey: "name")
            var request = FetchRequest<ManagedObject>(entityName: "Visit")
            request.predicate = try FetchPredicate(format: "city.name == 'Renamed'")
            #expect(try context.fetch(request).count == 1)
            request.includesPendingChanges = false
            #expect(try context.fetch(request).isEmpty)
        }
    }

    @Test(arguments: [
        ("Visit", "'Arcville' == city.name"), ("Visit", "lowercase(city.name) == 'arcville'"),
        ("City", "SUBQUERY(visits, $v, $v.note == 'arcville').@count > 0"),
    ])
    func aKeyPathAcrossStoresNoStoreCanFollowIsRefused(entity: String, format: String) throws {
        let stack = try Stack(type: "LMDB", citiesInFile: true)
        let context = try stack.saveCities(["Arcville"])
        let error = context.performAndWait {
            #expect(throws: ContextError.self) { try stack.fetch(entity, format, in: context) }
        }
        #expect(error?.code == .invalidRequest)
    }

    @Test(arguments: [true, false])
    func batchDeletionsReachTheOtherStore(citiesInFile: Bool) throws {
        let stack = try Stack(type: "LMDB", citiesInFile: citiesInFile)
        let context = try stack.saveCities(["Arcville", "Brookport", "Cliffton"])
        try context.performAndWait {
            _ = try context.execute(
                BatchDeleteRequest(
                    entityName: "Visit", predicate: try FetchPredicate(format: "city.name == 'Brookport'")))
            _ = try context.execute(
                BatchDeleteRequest(entityName: "City", predicate: try FetchPredicate(format: "name == 'Arcville'")))
        }
        let reader = stack.context()
        try reader.performAndWait {
            let notes = try stack.fetch("Visit", in: reader).map { try Self.string($0, "note") }
            #expect(notes == ["cliffton"])
            let cities = try stack.fetch("City", in: reader)
            #expect(try cities.map { try Self.string($0, "name") } == ["Brookport", "Cliffton"])
            #expect(try cities[0].objects(forKey: "visits").isEmpty)
        }
    }
}
