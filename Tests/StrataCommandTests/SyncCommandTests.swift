import Foundation
import Strata
import StrataStores
import StrataSync
import StrataTestSupport
import Testing

/// `strata sync`, `sync-token` and `sync-server`: a note saved to one replica reaches another of
/// another type through a hub reached directly and through a server, with a token made by
/// `sync-token`.
@Suite struct SyncCommandTests {
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel { EntityDescription("Note") { AttributeDescription("text", .string) } }
        try? model.freeze()
        return model
    }()

    /// Saves a note to the SQLite replica at `url`, made for syncing if it is new.
    static func write(_ text: String, at url: URL) throws {
        let coordinator = try PersistentStoreCoordinator(
            model: try SyncModel.replicaModel(for: model), storeTypes: StoreType.builtInFileTypes)
        try coordinator.addStore(type: "SQLite", at: url, options: StoreOptions(tracksPersistentHistory: true))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Note").setValue(.string(text), forKey: "text")
            try context.save()
        }
        for store in coordinator.stores { try coordinator.remove(store) }
    }

    /// The notes of the XML replica at `path`.
    static func notes(at path: String) throws -> [String] {
        let coordinator = try PersistentStoreCoordinator(
            model: try SyncModel.replicaModel(for: model), storeTypes: StoreType.builtInFileTypes)
        try coordinator.addStore(type: "XML", at: URL(fileURLWithPath: path), options: StoreOptions(isReadOnly: true))
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Note")).compactMap {
                if case .string(let text) = try $0.value(forKey: "text") { text } else { nil }
            }.sorted()
        }
    }

    /// Starts `strata` with `arguments` (a `sync-server` on port 0); answers the process and the
    /// URL it serves once it has printed its port.
    static func serve(_ arguments: [String]) throws -> (Process, String) {
        let server = Process()
        server.executableURL = BuiltProducts.executable("strata")
        server.arguments = arguments
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        var announced = ""
        while !announced.contains("\n") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            announced += String(decoding: data, as: UTF8.self)
        }
        let port = announced.split(separator: ":").last.flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if port == nil {
            server.terminate()
            _ = server.waitForTermination()
        }
        return (server, "http://127.0.0.1:\(try #require(port, "the server announced no port: '\(announced)'"))/")
    }

    @Test func aNoteReachesAnotherReplicaThroughAHubReachedDirectly() throws {
        let directory = try TemporaryDirectory()
        let modelFile = directory.file("notes.json")
        try Self.model.jsonData().write(to: modelFile)
        let sqlite = directory.file("a.sqlite")
        try Self.write("note from a", at: sqlite)
        let hub = directory.file("hub.sqlite").path

        let first = try StrataProcess.run(["sync", sqlite.path, hub])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.contains("pushed 2 operations at 1"))
        let xml = directory.file("b.xml").path
        let second = try StrataProcess.run(["sync", xml, hub, "--model", modelFile.path, "--once"])
        #expect(second.status == 0, "\(second.error)")
        #expect(second.output.contains("pulled 2 operations up to 1"))
        #expect(try Self.notes(at: xml) == ["note from a"])

        let missing = try StrataProcess.run(["sync", directory.file("c.xml").path, hub])
        #expect(missing.status == 1)
        #expect(missing.error.contains("pass --model"))
        let both = try StrataProcess.run(["sync", sqlite.path, hub, "--once", "--watch"])
        #expect(both.status != 0)
    }

    @Test func aNoteReachesAnotherReplicaThroughASyncServer() async throws {
        let directory = try TemporaryDirectory()
        let modelFile = directory.file("notes.json")
        try Self.model.jsonData().write(to: modelFile)
        let tokens = directory.file("tokens.json").path
        let sqlite = directory.file("a.sqlite")
        try Self.write("note over http", at: sqlite)
        let xml = directory.file("b.xml").path
        let tokenA = try StrataProcess.run(["sync-token", sqlite.path, "--tokens", tokens])
        let tokenB = try StrataProcess.run(["sync-token", xml, "--tokens", tokens, "--model", modelFile.path])
        #expect(tokenA.status == 0 && tokenB.status == 0, "\(tokenA.error) \(tokenB.error)")
        let tokensText = try String(contentsOfFile: tokens, encoding: .utf8)
        #expect(!tokensText.contains(tokenA.output.trimmingCharacters(in: .whitespacesAndNewlines)))

        let (server, url) = try Self.serve([
            "sync-server", "--hub", directory.file("hub.sqlite").path, "--tokens", tokens, "--port", "0",
        ])
        defer {
            server.terminate()
            _ = server.waitForTermination()
        }

        for (replica, token) in [(sqlite.path, tokenA), (xml, tokenB)] {
            let sync = try StrataProcess.run(
                ["sync", replica, url, "--token", token.output.trimmingCharacters(in: .whitespacesAndNewlines)])
            #expect(sync.status == 0, "\(sync.error)")
        }
        #expect(try Self.notes(at: xml) == ["note over http"])
        let refused = try StrataProcess.run(["sync", xml, url, "--token", "not a token"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("no token this server knows"))
    }

    @Test func aServerRefusesAReplicaOnAModelVersionOlderThanTheOldestItServes() async throws {
        let directory = try TemporaryDirectory()
        let bundle = MigrateCommandTests.bergier.appendingPathComponent("CoreDataMigration/Model.xcdatamodeld").path
        let tokens = directory.file("tokens.json").path
        var replicas: [(path: String, token: String)] = []
        for version in ["v1.0.0", "v2.0.0"] {
            let path = directory.file("\(version).xml").path
            let made = try StrataProcess.run(
                ["sync-token", path, "--tokens", tokens, "--model", bundle, "--model-version", version])
            #expect(made.status == 0, "\(made.error)")
            replicas.append((path, made.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let unknown = try StrataProcess.run([
            "sync-server", "--hub", directory.file("hub.sqlite").path, "--tokens", tokens, "--models", bundle,
            "--oldest-model", "v9",
        ])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("has no version 'v9'"), "\(unknown.error)")

        let (server, url) = try Self.serve([
            "sync-server", "--hub", directory.file("hub.sqlite").path, "--tokens", tokens, "--port", "0",
            "--models", bundle, "--oldest-model", "v1.2.0",
        ])
        defer {
            server.terminate()
            _ = server.waitForTermination()
        }

        let old = try StrataProcess.run(["sync", replicas[0].path, url, "--token", replicas[0].token])
        #expect(old.status == 1)
        #expect(old.error.contains("'v1.0.0'") && old.error.contains("'v1.2.0'"), "\(old.error)")
        let current = try StrataProcess.run(["sync", replicas[1].path, url, "--token", replicas[1].token])
        #expect(current.status == 0, "\(current.error)")
    }

    /// Notes with tags unique by label.
    static let taggedModel: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("text", .string)
                RelationshipDescription.toOne("tag", destination: "Tag", inverse: "notes")
            }
            EntityDescription("Tag") {
                AttributeDescription("label", .string)
                RelationshipDescription.toMany("notes", destination: "Note", inverse: "tag")
                UniquenessConstraint("label")
            }
        }
        try? model.freeze()
        return model
    }()

    @Test func aHubsCanonicalDumpIsTheSameAsItsReplicas() throws {
        let directory = try TemporaryDirectory()
        let modelFile = directory.file("tagged.json")
        try Self.taggedModel.jsonData().write(to: modelFile)
        let replicas = [("SQLite", directory.file("a.sqlite")), ("XML", directory.file("b.xml"))]
        // Each replica tags its note "shared" before they sync: the two tags show as one.
        for (type, url) in replicas {
            let coordinator = try PersistentStoreCoordinator(
                model: try SyncModel.replicaModel(for: Self.taggedModel), storeTypes: StoreType.builtInFileTypes)
            try coordinator.addStore(type: type, at: url, options: StoreOptions(tracksPersistentHistory: true))
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.performAndWait {
                let tag = try context.insertNewObject(forEntityName: "Tag")
                try tag.setValue(.string("shared"), forKey: "label")
                let note = try context.insertNewObject(forEntityName: "Note")
                try note.setValue(.string("from \(type)"), forKey: "text")
                try note.setObject(tag, forKey: "tag")
                try context.save()
            }
            for store in coordinator.stores { try coordinator.remove(store) }
        }
        let hub = directory.file("hub.sqlite").path
        for (_, url) in replicas + replicas {
            let sync = try StrataProcess.run(["sync", url.path, hub])
            #expect(sync.status == 0, "\(sync.error)")
        }

        let hubDump = try StrataProcess.run(["dump", "--canonical", hub, "--model", modelFile.path])
        #expect(hubDump.status == 0, "\(hubDump.error)")
        #expect(hubDump.output.contains("\"Tag/0\"") && !hubDump.output.contains("\"Tag/1\""), "\(hubDump.output)")
        #expect(hubDump.output.contains("from SQLite") && hubDump.output.contains("from XML"))
        for (type, url) in replicas {
            let dump = try StrataProcess.run(["dump", "--canonical", url.path])
            #expect(dump.status == 0, "\(dump.error)")
            #expect(dump.output == hubDump.output, "\(type)")
        }
        // Without the application's model, a hub's dump shows its own records, and a canonical
        // one, which would leave them all out, asks for the model.
        let records = try StrataProcess.run(["dump", hub])
        #expect(records.status == 0, "\(records.error)")
        #expect(records.output.contains("StrataSyncLogEntry"))
        let withoutModel = try StrataProcess.run(["dump", "--canonical", hub])
        #expect(withoutModel.status == 1)
        #expect(
            withoutModel.error.contains("sync hub") && withoutModel.error.contains("--model"), "\(withoutModel.error)")
    }
}
