import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// Coordinators that add the same new store at the same moment agree on the store: it is made
/// once, and every one of them reads the identifier its file holds. An LMDB store made twice
/// kept an identifier in one coordinator that its file did not hold, so a save across stores
/// logged under that identifier could never be completed by another process, and stayed half;
/// an SQLite opener failed with `database is locked` while another made the tables. (The
/// whole-file stores take one writer, and refuse the others with a typed error.)
@Suite struct NewStoreRaceTests {
    static let openers = 4
    static let rounds = 40

    @Test(arguments: [StoreType.sqlite.name, StoreType.lmdb.name])
    func coordinatorsAddingOneNewStoreAtOnceShareItsIdentifier(_ typeName: String) throws {
        let type = try #require([StoreType.sqlite, .lmdb].first { $0.name == typeName })
        let folder = try TemporaryDirectory()
        for round in 0..<Self.rounds {
            let url = folder.file("round-\(round).store")
            let identifiers = Locked<[String]>([])
            let failures = Locked<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let finished = DispatchGroup()
            for opener in 0..<Self.openers {
                finished.enter()
                Thread.detachNewThread {
                    defer { finished.leave() }
                    start.wait()
                    do {
                        let coordinator = try PersistentStoreCoordinator(
                            model: ContentionModel.model, storeTypes: [type])
                        let store = try coordinator.addStore(type: type.name, at: url)
                        identifiers.withLock { $0.append(store.identifier) }
                    } catch {
                        failures.withLock { $0.append("opener \(opener): \(error)") }
                    }
                }
            }
            for _ in 0..<Self.openers { start.signal() }
            finished.wait()
            #expect(failures.withLock { $0 } == [], "round \(round)")
            let reader = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [type])
            let stored = try #require(try reader.metadataForStore(type: type.name, at: url)).storeIdentifier
            let seen = identifiers.withLock { $0 }
            #expect(seen == Array(repeating: stored, count: Self.openers), "round \(round): the file holds \(stored)")
        }
    }
}
