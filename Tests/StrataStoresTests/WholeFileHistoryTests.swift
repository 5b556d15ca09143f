import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

@testable import StrataBinary
@testable import StrataXML

/// The persistent history of the whole-file stores, kept in the file under a reserved metadata
/// key: bounded, hidden from the metadata users see, kept by saves and writes of user keys,
/// carried across reopening, and refused with a typed error when damaged.
@Suite struct WholeFileHistoryTests {
    static let types: [StoreType] = [.xml, .binary]
    static let tracking = StoreOptions(tracksPersistentHistory: true)

    static func coordinator(
        _ type: StoreType, at url: URL?, options: StoreOptions = tracking
    ) throws -> (PersistentStoreCoordinator, any IncrementalStore) {
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [type])
        return (coordinator, try coordinator.addStore(type: type.name, at: url, options: options))
    }

    @Test(arguments: types)
    func historyIsKeptInTheFileAndHiddenFromItsMetadata(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("history.\(type.name)")
        do {
            let (coordinator, store) = try Self.coordinator(type, at: url)
            try ContentionModel.saveEntry(tagged: "first", through: coordinator)
            try coordinator.setUserInfo(["note": "kept"], for: store)
            #expect(throws: StoreError.self) { try coordinator.setUserInfo(["StrataPersistentHistory": 1], for: store) }
            try ContentionModel.saveEntry(tagged: "second", through: coordinator)
            #expect(store.metadata.userInfo == ["note": "kept"])
        }
        let files = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [type])
        let metadata = try #require(try files.metadataForStore(type: type.name, at: url))
        #expect(metadata.userInfo == ["note": "kept"])
        var replaced = metadata
        replaced.userInfo = ["note": "replaced"]
        try files.setMetadata(replaced, forStoreOfType: type.name, at: url)
        let (coordinator, store) = try Self.coordinator(type, at: url)
        #expect(store.metadata.userInfo == ["note": "replaced"])
        let transactions = try ContentionModel.history(of: coordinator)
        #expect(transactions.map(\.author) == ["first", "second"])
        #expect(transactions.map(\.token.transactionNumber) == [1, 2])
        #expect(transactions.allSatisfy { $0.changes?.map(\.changeType) == [.insert] })
    }

    @Test func theNewestThousandTransactionsAreKeptAndNumbersGoOn() throws {
        let (coordinator, store) = try Self.coordinator(.inMemory, at: nil)
        for serial in 0...1_000 { try ContentionModel.saveEntry(tagged: "writer \(serial)", through: coordinator) }
        let transactions = try ContentionModel.history(of: coordinator)
        #expect(transactions.count == 1_000)
        #expect(transactions.first?.token.transactionNumber == 2)
        #expect(try store.lastHistoryToken()?.transactionNumber == 1_001)
        _ = try coordinator.execute(.deleteHistory(before: .token(try store.lastHistoryToken())))
        try ContentionModel.saveEntry(tagged: "after", through: coordinator)
        #expect(try ContentionModel.history(of: coordinator).map(\.token.transactionNumber) == [1_002])
    }

    @Test(arguments: types)
    func aKeyThatHoldsNoHistoryIsACorruptErrorNamingTheFile(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("damaged.\(type.name)")
        do {
            let (coordinator, _) = try Self.coordinator(type, at: url)
            try ContentionModel.saveEntry(tagged: "first", through: coordinator)
        }
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [type])
        var metadata = try #require(try coordinator.metadataForStore(type: type.name, at: url))
        #expect(metadata.userInfo["StrataPersistentHistory"] == nil)
        metadata.userInfo["StrataPersistentHistory"] = "not a history"
        let refused = #expect(throws: StoreError.self) {
            try coordinator.setMetadata(metadata, forStoreOfType: type.name, at: url)
        }
        #expect(refused?.code == .invalidChange)
        #expect(try ContentionModel.history(of: try Self.coordinator(type, at: url).0).map(\.author) == ["first"])
        let store: any AtomicStore =
            type.name == StoreType.xml.name
            ? XMLStore(fileURL: url, model: ContentionModel.model) : BinaryStore(fileURL: url)
        var contents = try #require(try store.load())
        contents.metadata.userInfo["StrataPersistentHistory"] = "not a history"
        try store.write(contents)
        let error = #expect(throws: StoreError.self) {
            try coordinator.addStore(type: type.name, at: url, options: Self.tracking)
        }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains(url.path) == true)
        #expect(error?.message.contains("StrataPersistentHistory") == true)
    }
}
