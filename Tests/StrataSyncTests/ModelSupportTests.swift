import Foundation
import Strata
import StrataSQLite
import StrataSync
import StrataTestSupport
import StrataXML
import Testing

/// Model versions under sync: a hub serving versions from some version on refuses a replica on
/// an older one with a typed error naming both, before it pushes or pulls anything, and serves
/// the others — newer versions it does not know included.
@Suite struct ModelSupportTests {
    /// Notes as each version has them: version 2 adds a title, version 3 a date.
    static func appModel(version: Int) -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32, default: 0)
                if version >= 2 { AttributeDescription("subtitle", .string) }
                if version >= 3 { AttributeDescription("published", .date) }
            }
        }
    }

    static func versions() throws -> [SyncModelVersion] {
        try (1...3).map { try SyncModelVersion(of: appModel(version: $0), named: "Books \($0)") }
    }

    @Test func aVersionIsTheDigestOfTheReplicasModelWithAName() throws {
        let app = Self.appModel(version: 2)
        app.versionIdentifiers = ["2.0"]
        let version = try SyncModelVersion(of: app)
        let replica = try SyncModelVersion(of: SyncModel.replicaModel(for: Self.appModel(version: 2)))
        #expect(version.name == "2.0")
        #expect(replica.name == nil)
        #expect(version.digest == replica.digest)
        #expect(Set(try Self.versions().map(\.digest)).count == 3)
        #expect(version.description.hasPrefix("'2.0' (digest "))
    }

    @Test func aHubRefusesVersionsBeforeTheOldestItServesNamingBoth() throws {
        let versions = try Self.versions()
        #expect(ModelSupport(versions: versions, oldestSupported: "Books 9") == nil)
        let support = try #require(ModelSupport(versions: versions, oldestSupported: "Books 2"))
        let replica = ReplicaID.random()
        // The replica names its version otherwise; the hub names it by its own list.
        let old = SyncModelVersion(digest: versions[0].digest, name: "1.0")
        let error = #expect(throws: SyncError.self) { try support.admit(old, of: replica) }
        #expect(error?.code == .modelTooOld)
        #expect(error?.message.contains("'Books 1'") == true)
        #expect(error?.message.contains("'Books 2'") == true)
        #expect(error?.message.contains("\(replica)") == true)
        for served in versions[1...] { try support.admit(served, of: replica) }
        try support.admit(try SyncModelVersion(of: Self.appModel(version: 4)), of: replica)
    }

    @Test func aVersionWithTheDigestOfOneServedIsServed() throws {
        // Version 2 adds only an index, which version hashes leave out.
        let versions = try Self.versions()
        let indexOnly = SyncModelVersion(digest: versions[0].digest, name: "Books 1 indexed")
        let list = [versions[0], indexOnly, versions[1]]
        let support = try #require(ModelSupport(versions: list, oldestSupported: "Books 1 indexed"))
        try support.admit(versions[0], of: .random())
        let later = try #require(ModelSupport(versions: list, oldestSupported: "Books 2"))
        let error = #expect(throws: SyncError.self) { try later.admit(versions[0], of: .random()) }
        #expect(error?.message.contains("'Books 1 indexed'") == true, "named by the last version of that digest")
    }

    @Test func theDigestIsTheApplicationsEntitiesAloneAndLeavesTheModelAsItWas() throws {
        let app = Self.appModel(version: 1)
        let version = try SyncModelVersion(of: app)
        #expect(!app.isFrozen)
        let frozen = Self.appModel(version: 1)
        try frozen.freeze()
        #expect(version.digest == Data(frozen.schema.versionHashesDigest).base64EncodedString())
        app.versionIdentifiers = [""]
        #expect(try SyncModelVersion(of: app).name == nil)
    }

    @Test func aReplicaOnARetiredVersionIsRefusedBeforeItPushesAndOthersSync() async throws {
        let directory = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(model: SyncModel.hubModel(), storeTypes: [.sqlite])
        _ = try await coordinator.addStore(type: "SQLite", at: directory.file("hub.sqlite"))
        let support = try #require(ModelSupport(versions: try Self.versions(), oldestSupported: "Books 2"))
        let hub = try StoreHub(coordinator: coordinator, modelSupport: support)
        func replicaModel(_ version: Int) throws -> ManagedObjectModel {
            let model = try SyncModel.replicaModel(for: Self.appModel(version: version))
            try model.freeze()
            return model
        }
        let old = try SyncEngineTests.Replica(
            type: .sqlite, at: directory.file("old.sqlite"), hub: hub, model: replicaModel(1))
        let current = try SyncEngineTests.Replica(
            type: .xml, at: directory.file("current.xml"), hub: hub, model: replicaModel(3))
        for replica in [old, current] {
            try replica.edit { context in
                _ = try SyncEngineTests.insert("Book", ["title": "Dune"], in: context)
            }
        }

        let error = await #expect(throws: SyncError.self) { try await old.engine.syncNow() }
        #expect(error?.code == .modelTooOld)
        #expect(await hub.lastSequence == 0)
        try await current.engine.syncNow()
        #expect(await hub.lastSequence == 1)
        // Asked again at each sync until served: the old replica still pulls nothing.
        await #expect(throws: SyncError.self) { try await old.engine.syncNow() }
        #expect(try await old.engine.status().cursor == 0)
    }
}
