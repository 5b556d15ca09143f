import Foundation
import Strata
import StrataStores
import Testing

@Suite struct PersistentStoreDescriptionTests {
    @Test func factoriesNameEachBuiltInType() {
        let url = URL(fileURLWithPath: "/tmp/store")
        #expect(PersistentStoreDescription.sqlite(at: url).type == "SQLite")
        #expect(PersistentStoreDescription.lmdb(at: url).type == "LMDB")
        #expect(PersistentStoreDescription.xml(at: url).type == "XML")
        #expect(PersistentStoreDescription.binary(at: url, configuration: "Cache").configuration == "Cache")
        #expect(PersistentStoreDescription.inMemory().url == nil)
        #expect(StoreType.builtInFileTypes.map(\.name) == ["SQLite", "LMDB", "XML", "Binary"])
    }

    @Test func optionsCarryReadOnlyTimeoutAndPoolSize() {
        var description = PersistentStoreDescription.sqlite(at: URL(fileURLWithPath: "/tmp/a.sqlite"))
        #expect(description.storeOptions == StoreOptions())
        description.isReadOnly = true
        description.timeout = 2.5
        description.poolSize = 3
        description.settings = ["journal": "wal"]
        #expect(
            description.storeOptions
                == StoreOptions(isReadOnly: true, settings: ["busyTimeout": "2500", "poolSize": "3", "journal": "wal"]))
        #expect(description.shouldMigrateStoreAutomatically)
        #expect(description.shouldInferMappingModelAutomatically)
        #expect(!description.shouldAddStoreAsynchronously)
        #expect(description.description == "SQLite store at '/tmp/a.sqlite'")
    }
}
