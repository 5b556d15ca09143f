import Foundation
import Strata
import StrataStores

/// The story `strata demo` tells: a guidebook striped across an SQLite, an LMDB and an XML
/// store behind one context; saved, reopened, fetched across stores, faulted, a visit's city
/// followed across stores, pruned with a cascading delete, a save across the three stores
/// killed midway and completed on reopening, and its SQLite store moved into a binary store.
struct GuidebookDemo {
    let directory: URL
    private let model: ManagedObjectModel

    init(directory: URL) throws {
        self.directory = directory
        model = try GuidebookModel.make()
    }

    /// The demo's stores: configuration, type and file.
    private var stores: [(configuration: String, type: String, url: URL)] {
        [
            ("Atlas", "SQLite", file("guidebook-atlas.sqlite")), ("Journal", "LMDB", file("guidebook-journal.lmdb")),
            ("Guide", "XML", file("guidebook-guide.xml")),
        ]
    }

    private var binaryURL: URL { file("guidebook-atlas.binary") }

    private func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Runs every step, printing the story.
    func run() throws {
        var narrator = DemoNarrator()
        print("Strata demo in \(directory.path)")
        try narrator.step("Clear") { try clearPreviousRun() }
        try narrator.step("Build and save") { try build() }
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        let context = ManagedObjectContext(coordinator: coordinator, name: "demo")
        try narrator.step("Reopen") { try reopen(in: coordinator, context: context) }
        try narrator.step("Fetch across stores") { try fetch(in: context) }
        try narrator.step("Fire faults") { try fireFaults(in: context) }
        try narrator.step("Follow a relationship across stores") { try followAcrossStores(in: context) }
        try narrator.step("Delete with cascade") { try deleteCountry(in: context) }
        try narrator.step("Kill a save across three stores midway") { try interruptSave(in: coordinator) }
        try narrator.step("Move the SQLite store into a binary store") { try migrate(in: coordinator) }
        print("The stores are left in \(directory.path):")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            let size = (try? FileManager.default.attributesOfItem(atPath: file(name).path)[.size] as? Int) ?? 0
            print("  \(name) (\(size) bytes)")
        }
    }

    /// Adds the demo's three stores to `coordinator`.
    func addStores(to coordinator: PersistentStoreCoordinator) throws {
        for store in stores {
            try coordinator.addStore(type: store.type, configuration: store.configuration, at: store.url)
        }
    }

    /// A new coordinator with the demo's three stores added.
    func openStores() throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        try addStores(to: coordinator)
        return coordinator
    }

    private func clearPreviousRun() throws -> String {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        for store in stores { try coordinator.destroyStore(type: store.type, at: store.url) }
        try coordinator.destroyStore(type: "Binary", at: binaryURL)
        let saveLog = file(".strata-save-log")
        if FileManager.default.fileExists(atPath: saveLog.path) { try FileManager.default.removeItem(at: saveLog) }
        return "removed the stores of any earlier run"
    }

    private func build() throws -> String {
        let coordinator = try openStores()
        let context = ManagedObjectContext(coordinator: coordinator, name: "build")
        let cities = try context.performAndWait {
            let names = GuidebookSeed.insert(into: context)
            try context.save()
            return names.count
        }
        return "\(cities) cities in 3 countries with their states, counties and points of interest in SQLite, "
            + "60 visits in LMDB, each related to its city across stores, and 40 tips in XML, saved by one context"
    }

    private func reopen(in coordinator: PersistentStoreCoordinator, context: ManagedObjectContext) throws -> String {
        try addStores(to: coordinator)
        let counts = try context.performAndWait {
            try [Country.self, State.self, County.self, City.self, PointOfInterest.self, Visit.self, Tip.self].map {
                "\(try count($0, in: context)) \($0.entityName)"
            }
        }
        return "three stores reopened in a new coordinator holding " + counts.joined(separator: ", ")
    }

    private func fetch(in context: ManagedObjectContext) throws -> String {
        try context.performAndWait {
            let cities = try FetchRequest<City>(
                predicate: #Predicate { $0.population > 800_000 },
                sortBy: [SortDescriptor(\.population, order: .reverse)])
            let large = try context.fetch(cities).map(\.name)
            let notes = try FetchRequest<Note>(
                predicate: #Predicate { $0.day <= 3 }, sortBy: [SortDescriptor(\.day), SortDescriptor(\.title)])
            let found = Array(try context.fetch(notes))
            let visits = found.filter { $0 is Visit }.count
            return "\(large.count) cities above 800,000 people (largest: \(large.first ?? "none")); "
                + "\(found.count) notes of days 1 to 3 from two stores, sorted by day and title: \(visits) visits "
                + "from LMDB and \(found.count - visits) tips from XML, first \"\(found.first?.title ?? "")\""
        }
    }

    private func fireFaults(in context: ManagedObjectContext) throws -> String {
        try context.performAndWait {
            context.reset()
            var request = try FetchRequest<PointOfInterest>(predicate: #Predicate { $0.category == "museum" })
            request.fetchLimit = 1
            var current: ManagedObject? = try context.fetch(request).first
            var names: [String] = []
            var fired = 0
            while let object = current {
                if object.isFault { fired += 1 }
                switch object {
                case let point as PointOfInterest: (names, current) = (names + [point.name], point.city)
                case let city as City: (names, current) = (names + [city.name], city.county)
                case let county as County: (names, current) = (names + [county.name], county.state)
                case let state as State: (names, current) = (names + [state.name], state.country)
                case let country as Country: (names, current) = (names + [country.name], nil)
                default: current = nil
                }
            }
            return "a museum fetched as a fault; walking up to its country fired \(fired) faults: "
                + names.joined(separator: " → ")
        }
    }

    /// Reads a visit's city (a fault of the SQLite store fired from an object of the LMDB
    /// store), then finds every visit of that city by its name, in two steps.
    private func followAcrossStores(in context: ManagedObjectContext) throws -> String {
        try context.performAndWait {
            context.reset()
            let first = try FetchRequest<Visit>(predicate: #Predicate { $0.title == "Visit 1" })
            guard let city = try context.fetch(first).first?.city else { return "Visit 1 has no city" }
            let name = city.name
            var byName = FetchRequest<ManagedObject>(entityName: Visit.entityName)
            byName.predicate = try FetchPredicate(format: "city.name == %@", name)
            byName.sortDescriptors = [FetchSortDescriptor("title")]
            let titles = try context.fetch(byName).compactMap { ($0 as? Visit)?.title }
            return "Visit 1 (LMDB) points at \(name) (SQLite), which lists \(city.visits.count) visits; "
                + "\"city.name == '\(name)'\" finds \(titles.joined(separator: ", ")) in two steps"
        }
    }

    private func deleteCountry(in context: ManagedObjectContext) throws -> String {
        try context.performAndWait {
            let atlas: [ManagedObject.Type] = [Country.self, State.self, County.self, City.self, PointOfInterest.self]
            let before = try atlas.map { try count($0, in: context) }
            let borealis = try FetchRequest<Country>(predicate: #Predicate { $0.name == "Borealis" })
            for country in try context.fetch(borealis) { try context.delete(country) }
            try context.save()
            let after = try atlas.map { try count($0, in: context) }
            let removed = zip(atlas, zip(before, after)).map { "\($1.0 - $1.1) \($0.entityName)" }
            return "deleting Borealis removed " + removed.joined(separator: ", ")
        }
    }

    private func migrate(in coordinator: PersistentStoreCoordinator) throws -> String {
        guard let atlas = coordinator.store(at: stores[0].url) else { return "the SQLite store is not open" }
        let binary = try coordinator.migratePersistentStore(atlas, to: binaryURL, type: "Binary")
        let context = ManagedObjectContext(coordinator: coordinator, name: "after migration")
        let (cities, cityOfFirstVisit) = try context.performAndWait {
            let first = try FetchRequest<Visit>(predicate: #Predicate { $0.title == "Visit 1" })
            return (try count(City.self, in: context), try context.fetch(first).first?.city?.name ?? "none")
        }
        return "the Atlas configuration now lives in \(binaryURL.lastPathComponent) (\(binary.typeName)), "
            + "\(cities) cities fetched from it, Visit 1 (LMDB) still pointing at \(cityOfFirstVisit); "
            + "the SQLite file is left as it was"
    }

    private func count(_ type: ManagedObject.Type, in context: ManagedObjectContext) throws -> Int {
        try context.count(for: FetchRequest<ManagedObject>(entityName: type.entityName))
    }
}
