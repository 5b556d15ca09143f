import Foundation
@_spi(FaultInjection) import Strata

/// Cities in a store with a local file and visits in a store on a server: the stack of the
/// tests of saves across such stores, which the server's store joins by preparing its part
/// (docs/STRIPED-SAVES.md), and of their worker (`PostgresStripedSaveWorker`), which kills
/// itself at a step of such a save.
public enum FileAndServerStores {
    public static let model: ManagedObjectModel = {
        ManagedObjectModel {
            EntityDescription("City") { AttributeDescription("name", .string) }
            EntityDescription("Visit") { AttributeDescription("note", .string) }
            EntityDescription("Tip") { AttributeDescription("text", .string) }
            ConfigurationDescription("Cities", entities: ["City"])
            ConfigurationDescription("Visits", entities: ["Visit"])
            ConfigurationDescription("Tips", entities: ["Tip"])
        }
    }()

    /// The steps the worker kills itself at, as it names them.
    @_spi(FaultInjection) public static let steps: [String: PersistentStoreCoordinator.StripedSaveStep] = [
        "prepared": .prepared, "logged": .logged, "committed0": .committed(0), "committed1": .committed(1),
    ]

    /// The steps at which the killed save is not decided: no store may hold it.
    public static let undecidedSteps: Set<String> = ["prepared"]

    /// A coordinator with the cities in `cities.sqlite` of `folder` (a store of `fileType`) and
    /// the visits at `server` (a store of `serverType`), the server's store first when
    /// `serverFirst`; with `tips`, the tips in a store of `serverType` there too.
    public static func open(
        folder: URL, server: URL, tips: URL? = nil, fileType: StoreType, serverType: StoreType,
        serverFirst: Bool = false
    ) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [fileType, serverType])
        let adds = [
            {
                try coordinator.addStore(
                    type: fileType.name, configuration: "Cities", at: folder.appendingPathComponent("cities.sqlite"))
            },
            { try coordinator.addStore(type: serverType.name, configuration: "Visits", at: server) },
        ]
        for add in serverFirst ? adds.reversed() : adds { _ = try add() }
        if let tips { try coordinator.addStore(type: serverType.name, configuration: "Tips", at: tips) }
        return coordinator
    }

    /// Saves a city and a visit named `name`, and a tip when the coordinator has a store for
    /// them: a save across the stores.
    public static func save(_ name: String, in coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let tips = coordinator.stores.contains { $0.configurationName == "Tips" }
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "City").setValue(.string(name), forKey: "name")
            try context.insertNewObject(forEntityName: "Visit").setValue(.string(name), forKey: "note")
            if tips { try context.insertNewObject(forEntityName: "Tip").setValue(.string(name), forKey: "text") }
            try context.save()
        }
    }

    /// The texts of the tips the coordinator's store of tips holds, sorted.
    public static func tips(in coordinator: PersistentStoreCoordinator) throws -> [String] {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Tip")).compactMap { object -> String? in
                if case .string(let text) = try object.value(forKey: "text") { return text }
                return nil
            }.sorted()
        }
    }

    /// The names of the cities and the notes of the visits the stores hold, sorted.
    public static func contents(of coordinator: PersistentStoreCoordinator) throws -> (
        cities: [String], visits: [String]
    ) {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            let read = { (entity: String, key: String) throws -> [String] in
                try context.fetch(FetchRequest(entityName: entity)).compactMap { object -> String? in
                    if case .string(let text) = try object.value(forKey: key) { return text }
                    return nil
                }.sorted()
            }
            return (try read("City", "name"), try read("Visit", "note"))
        }
    }
}
