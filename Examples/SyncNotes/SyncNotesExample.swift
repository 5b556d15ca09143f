import Foundation
import Logging
import Strata
import StrataSQLite
import StrataSync
import StrataSyncServer
import StrataXML

// Two replicas of a notes app — one in a SQLite store, one in an XML store — kept in step
// through a hub in a SQLite store, served over HTTP on loopback by the same server
// `strata sync-server` runs. Each replica holds a bearer token for its replica ID. The example
// edits both, syncs, shows how a concurrent edit of the same note settles, and prints what each
// store holds. Run it with `make sync-example`; it works in a new temporary folder, printed first.

let appModel = ManagedObjectModel {
    EntityDescription("Note") {
        AttributeDescription("title", .string)
        AttributeDescription("body", .string)
        RelationshipDescription.toMany("tags", destination: "Tag", inverse: "notes")
    }
    EntityDescription("Tag") {
        AttributeDescription("name", .string)
        RelationshipDescription.toMany("notes", destination: "Note", inverse: "tags")
    }
}

/// The string `object` holds under `key`.
func text(_ object: ManagedObject, _ key: String) throws -> String {
    if case .string(let text) = try object.value(forKey: key) { text } else { "" }
}

/// One replica: its store, a context for the app's edits, its engine.
struct Replica {
    let name: String
    let coordinator: PersistentStoreCoordinator
    let context: ManagedObjectContext

    init(_ name: String, type: StoreType, at url: URL) throws {
        self.name = name
        coordinator = try PersistentStoreCoordinator(
            model: try SyncModel.replicaModel(for: appModel), storeTypes: [.sqlite, .xml])
        try coordinator.addStore(type: type.name, at: url, options: StoreOptions(tracksPersistentHistory: true))
        context = ManagedObjectContext(coordinator: coordinator)
    }

    /// Runs `body` on the app's context and saves.
    func edit(_ body: (ManagedObjectContext) throws -> Void) throws {
        try context.performAndWait {
            try context.refreshAllObjects()
            try body(context)
            try context.save()
        }
    }

    func note(titled title: String) throws -> ManagedObject? {
        var request = FetchRequest<ManagedObject>(entityName: "Note")
        request.predicate = try FetchPredicate(format: "title == %@", title)
        return try context.fetch(request).first
    }

    /// What the store holds, one line per note.
    func show() throws {
        let reader = ManagedObjectContext(coordinator: coordinator)
        try reader.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Note")
            request.sortDescriptors = [FetchSortDescriptor("title")]
            print("  \(name):")
            for note in try reader.fetch(request) {
                let tags = try note.objects(forKey: "tags").map { try text($0, "name") }.sorted()
                print("    \(try text(note, "title")): \(try text(note, "body")) \(tags)")
            }
        }
    }
}

@main
enum SyncNotesExample {
    static func main() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-example-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        print("Working in \(folder.path)")

        let laptop = try Replica("laptop (SQLite)", type: .sqlite, at: folder.appendingPathComponent("laptop.sqlite"))
        let phone = try Replica("phone (XML)", type: .xml, at: folder.appendingPathComponent("phone.xml"))

        // The hub and its server, with a read-write token for each replica.
        let hubCoordinator = try PersistentStoreCoordinator(model: SyncModel.hubModel(), storeTypes: [.sqlite])
        _ = try await hubCoordinator.addStore(type: "SQLite", at: folder.appendingPathComponent("hub.sqlite"))
        let hub = try StoreHub(coordinator: hubCoordinator)
        var tokens = AccessTokens()
        var tokenOf: [String: String] = [:]
        for replica in [laptop, phone] {
            let token = AccessTokens.newToken()
            tokens.add(
                token,
                granting: .init(
                    hub: "notes", replica: try SyncEngine.replicaID(in: replica.coordinator), access: .readWrite))
            tokenOf[replica.name] = token
        }
        var logger = Logger(label: "sync-example")
        logger.logLevel = .critical
        let (ports, announce) = AsyncStream.makeStream(of: Int?.self)
        let server = SyncServer.application(
            hubs: ["notes": hub], tokens: tokens, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { announce.yield($0) }, logger: logger)
        let serving = Task { try await server.runService(gracefulShutdownSignals: []) }
        var portIterator = ports.makeAsyncIterator()
        guard let port = await portIterator.next() ?? nil, let url = URL(string: "http://127.0.0.1:\(port)/") else {
            fatalError("The sync server did not start.")
        }
        print("Sync server on \(url.absoluteString)")

        let laptopSync = try SyncEngine(
            coordinator: laptop.coordinator, hub: HTTPHub(server: url, hub: "notes", token: tokenOf[laptop.name] ?? ""))
        let phoneSync = try SyncEngine(
            coordinator: phone.coordinator, hub: HTTPHub(server: url, hub: "notes", token: tokenOf[phone.name] ?? ""))
        let settled = Task {
            for await event in laptopSync.events {
                if case .conflictSettled(let operation, let winner) = event {
                    print("  laptop: a write stamped \(operation.stamp) lost to the one stamped \(winner)")
                }
            }
        }

        print("\n1. The laptop writes two notes; both replicas sync.")
        try laptop.edit { context in
            let groceries = try context.insertNewObject(forEntityName: "Note")
            try groceries.setValue("Groceries", forKey: "title")
            try groceries.setValue("eggs, flour", forKey: "body")
            let ideas = try context.insertNewObject(forEntityName: "Note")
            try ideas.setValue("Ideas", forKey: "title")
            try ideas.setValue("a sync example", forKey: "body")
            let home = try context.insertNewObject(forEntityName: "Tag")
            try home.setValue("home", forKey: "name")
            try groceries.setObjects([home], forKey: "tags")
        }
        try await laptopSync.syncNow()
        try await phoneSync.syncNow()
        try laptop.show()
        try phone.show()

        print("\n2. Offline, the phone and then the laptop change the same note's body; the phone also tags it.")
        try phone.edit { context in
            guard let note = try phone.note(titled: "Groceries") else { return }
            try note.setValue("eggs, flour, milk", forKey: "body")
            let urgent = try context.insertNewObject(forEntityName: "Tag")
            try urgent.setValue("urgent", forKey: "name")
            try note.setObjects(try note.objects(forKey: "tags") + [urgent], forKey: "tags")
        }
        try await Task.sleep(for: .milliseconds(5))
        try laptop.edit { _ in try laptop.note(titled: "Groceries")?.setValue("eggs, flour, butter", forKey: "body") }
        try await phoneSync.syncNow()
        try await laptopSync.syncNow()
        try await phoneSync.syncNow()
        print("  The later body wins on both; the tag added on the phone is kept:")
        try laptop.show()
        try phone.show()

        print("\n3. The phone deletes a note; the laptop sees it go.")
        try phone.edit { context in
            if let ideas = try phone.note(titled: "Ideas") { try context.delete(ideas) }
        }
        try await phoneSync.syncNow()
        try await laptopSync.syncNow()
        try laptop.show()
        try phone.show()

        let (laptopState, phoneState, hubState) = (
            await laptopSync.resolvedObjects(), await phoneSync.resolvedObjects(), await hub.resolvedObjects()
        )
        print("\nBoth replicas hold the same objects as the hub: \(laptopState == hubState && phoneState == hubState)")
        settled.cancel()
        serving.cancel()
        _ = await serving.result
    }
}
