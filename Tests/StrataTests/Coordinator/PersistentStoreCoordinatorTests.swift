import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct PersistentStoreCoordinatorTests {
    private func coordinator(_ types: [StoreType] = []) throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator(model: try CoordinatorFixtures.model(), storeTypes: types)
    }

    private func code(of error: any Error) -> StoreError.Code? { (error as? StoreError)?.code }

    @Test func theInMemoryTypeIsBuiltIn() throws {
        let coordinator = try coordinator()
        #expect(coordinator.storeTypeNames == [StoreType.inMemory.name])
        let store = try coordinator.addStore(type: StoreType.inMemory.name)
        #expect(store.typeName == "InMemory" && coordinator.stores.count == 1)
    }

    @Test func anUnknownTypeIsRefusedNamingTheKnownTypes() throws {
        let coordinator = try coordinator([.jsonFile()])
        #expect {
            try coordinator.addStore(type: "SQLite")
        } throws: { error in
            guard let error = error as? StoreError, error.code == .unknownStoreType else { return false }
            return error.message.contains("'SQLite'") && error.message.contains("known types: InMemory, JSON")
        }
        #expect(coordinator.stores.isEmpty)
    }

    @Test func aRegisteredAtomicTypeCanBeAdded() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator()
        coordinator.register(.jsonFile())
        #expect(coordinator.storeTypeNames == ["InMemory", "JSON"])
        let url = folder.file("library.json")
        let store = try coordinator.addStore(type: "JSON", configuration: "Library", at: url)
        #expect(store.typeName == "JSON" && store.url == url && store.configurationName == "Library")
        try CoordinatorFixtures.fill(store)
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    @Test func addingAsynchronouslyAddsTheStore() async throws {
        let coordinator = try coordinator()
        let store = try await coordinator.addStore(type: StoreType.inMemory.name, configuration: "Scratch")
        #expect(coordinator.stores.map(\.identifier) == [store.identifier])
    }

    @Test func storesAreListedInTheOrderTheyWereAdded() throws {
        let coordinator = try coordinator()
        let first = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Scratch")
        let second = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Library")
        let third = try InMemoryStore.open(model: coordinator.model)
        try coordinator.add(third)
        #expect(coordinator.stores.map(\.identifier) == [first, second, third].map(\.identifier))
    }

    @Test func storesAreFoundByURLAndIdentifier() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator()
        let url = folder.file("cache.store")
        let store = try coordinator.addStore(type: StoreType.inMemory.name, at: url)
        let other = try coordinator.addStore(type: StoreType.inMemory.name, at: folder.file("other.store"))
        #expect(coordinator.store(at: url) === store)
        #expect(coordinator.store(at: folder.url.appendingPathComponent("./sub/../cache.store")) === store)
        #expect(coordinator.store(at: folder.file("missing.store")) == nil)
        #expect(coordinator.store(withIdentifier: other.identifier) === other)
        #expect(coordinator.store(withIdentifier: UUID().uuidString) == nil)
    }

    @Test func removingAStoreTwiceIsAnUnknownStore() throws {
        let coordinator = try coordinator()
        let kept = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Scratch")
        let removed = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Library")
        try coordinator.remove(removed)
        #expect(coordinator.stores.map(\.identifier) == [kept.identifier])
        #expect {
            try coordinator.remove(removed)
        } throws: { error in
            guard let error = error as? StoreError, error.code == .unknownStore else { return false }
            return error.message.contains(removed.identifier)
        }
    }

    @Test func anUnknownConfigurationIsRefusedNamingTheKnownOnes() throws {
        let coordinator = try coordinator()
        #expect {
            try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Attic")
        } throws: { error in
            guard let error = error as? StoreError, error.code == .unknownConfiguration else { return false }
            return error.message.contains("'Attic'") && error.message.contains("Library, Scratch")
        }
        let stray = try InMemoryStore.open(model: try CoordinatorFixtures.model(), configuration: "Library")
        let other = try PersistentStoreCoordinator(model: InMemoryStoreTests.library())
        #expect(throws: StoreError.self) { try other.add(stray) }
        #expect(coordinator.stores.isEmpty && other.stores.isEmpty)
    }

    @Test func twoStoresAtOneURLAreRefused() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator([.jsonFile()])
        let url = folder.file("shared.json")
        try coordinator.addStore(type: "JSON", at: url)
        for type in ["JSON", StoreType.inMemory.name] {
            #expect {
                try coordinator.addStore(type: type, at: url)
            } throws: { error in
                guard let error = error as? StoreError, error.code == .inUse else { return false }
                return error.message.contains("'\(url.path)'")
            }
        }
        let sameFile = try InMemoryStore.open(
            StoreOpenRequest(model: coordinator.model, url: folder.url.appendingPathComponent("./shared.json")))
        #expect { try coordinator.add(sameFile) } throws: { code(of: $0) == .inUse }
        #expect(coordinator.stores.count == 1)
    }

    @Test func aStoreWithAnAddedIdentifierIsRefused() throws {
        let coordinator = try coordinator()
        let store = try coordinator.addStore(type: StoreType.inMemory.name)
        let twin = try InMemoryStore.open(
            StoreOpenRequest(model: coordinator.model, identifierForNewStore: store.identifier))
        #expect { try coordinator.add(twin) } throws: { code(of: $0) == .inUse }
    }

    @Test func aReadOnlyStoreRefusesSaves() throws {
        let coordinator = try coordinator()
        let store = try coordinator.addStore(
            type: StoreType.inMemory.name, configuration: "Scratch", options: StoreOptions(isReadOnly: true))
        #expect(store.options.isReadOnly)
        let id = try store.permanentIDs(forEntities: ["Note"])[0]
        let changes = StoreChangeSet(inserted: [.init(objectID: id, values: ["text": "no"], expectedVersion: 0)])
        #expect { try coordinator.save(changes, to: store) } throws: { code(of: $0) == .readOnly }
        #expect { try store.save(changes) } throws: { code(of: $0) == .readOnly }
    }

    @Test func savesReachTheStoreOnlyWhenTheyAreValid() throws {
        let coordinator = try coordinator()
        let store = ObservedStore(base: try InMemoryStore.open(model: coordinator.model, configuration: "Scratch"))
        let id = try store.permanentIDs(forEntities: ["Note"])[0]
        let bad = StoreChangeSet(inserted: [.init(objectID: id, values: ["text": 7], expectedVersion: 0)])
        #expect { try coordinator.save(bad, to: store) } throws: { code(of: $0) == .unknownStore }
        try coordinator.add(store)
        #expect { try coordinator.save(bad, to: store) } throws: { code(of: $0) == .invalidChange }
        #expect(store.reads.withLock { $0.saves } == 0)
        try coordinator.save(
            StoreChangeSet(inserted: [.init(objectID: id, values: ["text": "yes"], expectedVersion: 0)]), to: store)
        #expect(store.reads.withLock { $0.saves } == 1)
        #expect(try store.snapshot(for: id)?.values["text"] == "yes")
    }

    @Test func storesAreClosedWhenRemovedAndWhenTheCoordinatorGoesAway() throws {
        var coordinator: PersistentStoreCoordinator? = try self.coordinator()
        let model = try #require(coordinator?.model)
        let removed = ObservedStore(base: try InMemoryStore.open(model: model, configuration: "Scratch"))
        let kept = ObservedStore(base: try InMemoryStore.open(model: model, configuration: "Scratch"))
        try coordinator?.add(removed)
        try coordinator?.add(kept)
        try coordinator?.remove(removed)
        #expect(removed.reads.withLock { ($0.attachments, $0.closes) } == (1, 1))
        #expect(kept.reads.withLock { ($0.attachments, $0.closes) } == (1, 0))
        coordinator = nil
        #expect(kept.reads.withLock { ($0.attachments, $0.closes) } == (1, 1))
        #expect(removed.reads.withLock { $0.closes } == 1)
    }

    @Test func entitiesAreRoutedToTheStoresOfTheirConfiguration() throws {
        let coordinator = try coordinator()
        let scratch = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Scratch")
        let library = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Library")
        #expect(coordinator.stores(forEntity: "Note").map(\.identifier) == [scratch.identifier])
        for entity in ["Author", "Book", "Comic", "Series"] {
            #expect(coordinator.stores(forEntity: entity).map(\.identifier) == [library.identifier])
        }
        #expect(coordinator.stores(forEntity: "Ghost").isEmpty)
        let everything = try coordinator.addStore(type: StoreType.inMemory.name)
        #expect(coordinator.stores(forEntity: "Note").map(\.identifier) == [scratch, everything].map(\.identifier))
    }
}
