import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct PersistentStoreCoordinatorMigrationTests {
    private func coordinator() throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator(
            model: try CoordinatorFixtures.model(),
            storeTypes: [.jsonFile(), .jsonFile(name: "BrokenJSON", failure: .afterWriting)])
    }

    /// Records every progress report.
    private final class ProgressLog: Sendable {
        let reports = Locked<[MigrationProgress]>([])
        var callback: @Sendable (MigrationProgress) -> Void {
            { report in self.reports.withLock { $0.append(report) } }
        }
    }

    /// Checks that `destination` holds what `source` held, under the same identifier, with the
    /// same object IDs, and that the coordinator lists it where the source was.
    private func expectCopy(
        of source: any IncrementalStore, contents: [String: CoordinatorFixtures.ObjectContent],
        to destination: any IncrementalStore, at position: Int, in coordinator: PersistentStoreCoordinator
    ) throws {
        #expect(try CoordinatorFixtures.contents(of: destination, model: coordinator.model) == contents)
        #expect(destination.identifier == source.identifier)
        #expect(destination.metadata.storeIdentifier == source.identifier)
        #expect(destination.metadata.userInfo == source.metadata.userInfo)
        #expect(destination.configurationName == source.configurationName)
        #expect(coordinator.stores[position] === destination)
        #expect(!coordinator.stores.contains { $0 === source })
        let oldIDs = try objectIDs(in: source, model: coordinator.model)
        let newIDs = try objectIDs(in: destination, model: coordinator.model)
        #expect(!oldIDs.isEmpty && oldIDs == newIDs)
        #expect(newIDs.allSatisfy { coordinator.objectID(forURIRepresentation: $0.uriRepresentation) == $0 })
    }

    private func objectIDs(in store: any IncrementalStore, model: ManagedObjectModel) throws -> Set<ObjectID> {
        var ids: Set<ObjectID> = []
        for name in model.entityNames(inConfiguration: store.configurationName) {
            let request = StoreFetchRequest(entityName: name, includesSubentities: false, resultType: .objectIDs)
            if case .objectIDs(let found) = try store.execute(request) { ids.formUnion(found) }
        }
        return ids
    }

    private func expectMonotonic(_ reports: [MigrationProgress], total: Int) {
        #expect(!reports.isEmpty)
        #expect(reports.allSatisfy { $0.totalObjects == total && $0.completedObjects <= total })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.completedObjects <= $1.completedObjects })
        #expect(reports.last == MigrationProgress(completedObjects: total, totalObjects: total))
    }

    @Test func anInMemoryStoreMovesToAFile() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator()
        let scratch = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Scratch")
        let source = try InMemoryStore.open(
            StoreOpenRequest(
                model: coordinator.model, configurationName: "Library",
                userInfoForNewStore: ["owner": "Ada", "revision": .integer64(3)]))
        try coordinator.add(source)
        let total = try CoordinatorFixtures.fill(source)
        let contents = try CoordinatorFixtures.contents(of: source, model: coordinator.model)
        #expect(
            contents.count == total
                && contents["Series Saga"]?.toMany["volumes"] == ["Book Zeta", "Comic Kite", "Book Alpha"])
        let log = ProgressLog()
        let url = folder.file("library.json")

        let destination = try coordinator.migratePersistentStore(
            source, to: url, type: "JSON", progress: log.callback)

        #expect(destination.typeName == "JSON" && destination.url == url)
        #expect(destination.metadata.userInfo == ["owner": "Ada", "revision": .integer64(3)])
        try expectCopy(of: source, contents: contents, to: destination, at: 1, in: coordinator)
        #expect(coordinator.stores[0] === scratch && coordinator.stores.count == 2)
        expectMonotonic(log.reports.withLock { $0 }, total: total)
        #expect(try CoordinatorFixtures.contents(of: source, model: coordinator.model) == contents)

        try coordinator.remove(destination)
        let reopened = try coordinator.addStore(type: "JSON", configuration: "Library", at: url)
        #expect(reopened.identifier == source.identifier)
        #expect(try CoordinatorFixtures.contents(of: reopened, model: coordinator.model) == contents)
    }

    @Test func aFileStoreMovesToAnotherFileLeavingTheSourceFileAlone() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator()
        let sourceURL = folder.file("old.json")
        let first = try coordinator.addStore(type: "JSON", at: sourceURL)
        let total = try CoordinatorFixtures.fill(first)
        try coordinator.remove(first)
        var metadata = try #require(try coordinator.metadataForStore(type: "JSON", at: sourceURL))
        metadata.userInfo = ["owner": "Bo", "synced": .boolean(true)]
        try coordinator.setMetadata(metadata, forStoreOfType: "JSON", at: sourceURL)
        let before = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Scratch")
        let source = try coordinator.addStore(type: "JSON", at: sourceURL)
        let after = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Library")
        let bytes = try Data(contentsOf: sourceURL)
        let contents = try CoordinatorFixtures.contents(of: source, model: coordinator.model)
        #expect(contents.count == total && contents["Note Remember the milk."] != nil)
        let log = ProgressLog()

        let destination = try coordinator.migratePersistentStore(
            source, to: folder.file("new.json"), type: "JSON", progress: log.callback)

        #expect(destination.metadata.userInfo == ["owner": "Bo", "synced": .boolean(true)])
        try expectCopy(of: source, contents: contents, to: destination, at: 1, in: coordinator)
        #expect(coordinator.stores.map(\.identifier) == [before, destination, after].map(\.identifier))
        #expect(try Data(contentsOf: sourceURL) == bytes)
        expectMonotonic(log.reports.withLock { $0 }, total: total)
        #expect(log.reports.withLock { $0.count } > 2)
    }

    @Test func aFailedWriteRemovesTheDestinationAndKeepsTheSource() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator()
        let sourceURL = folder.file("old.json")
        let source = try coordinator.addStore(type: "JSON", configuration: "Library", at: sourceURL)
        try CoordinatorFixtures.fill(source)
        let bytes = try Data(contentsOf: sourceURL)
        let contents = try CoordinatorFixtures.contents(of: source, model: coordinator.model)
        let url = folder.file("new.json")

        #expect {
            try coordinator.migratePersistentStore(source, to: url, type: "BrokenJSON")
        } throws: { error in
            guard let error = error as? StoreError, error.code == .migrationFailed else { return false }
            let underlying = error.underlying as? StoreError
            return underlying?.code == .io && error.message.contains("'\(sourceURL.path)'")
                && error.message.contains("'\(url.path)'") && error.message.contains("Could not sync the folder")
        }

        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(coordinator.stores.count == 1 && coordinator.stores[0] === source)
        #expect(try Data(contentsOf: sourceURL) == bytes)
        #expect(try CoordinatorFixtures.contents(of: source, model: coordinator.model) == contents)
    }

    @Test func aReferenceToAMissingObjectFailsTheMigration() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator()
        let source = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Library")
        let ids = try source.permanentIDs(forEntities: ["Book", "Author"])
        try source.save(
            StoreChangeSet(inserted: [
                .init(objectID: ids[0], values: ["title": "Orphan", "author": .objectID(ids[1])], expectedVersion: 0)
            ]))
        let url = folder.file("new.json")
        #expect {
            try coordinator.migratePersistentStore(source, to: url, type: "JSON")
        } throws: { error in
            guard let error = error as? StoreError, error.code == .migrationFailed else { return false }
            return (error.underlying as? StoreError)?.code == .unknownObject && error.message.contains("\(ids[1])")
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(coordinator.stores.count == 1 && coordinator.stores[0] === source)
    }

    @Test func anOccupiedDestinationIsRefusedAndLeftAlone() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator()
        let occupiedURL = folder.file("occupied.json")
        let occupant = try coordinator.addStore(type: "JSON", at: occupiedURL)
        try CoordinatorFixtures.fill(occupant)
        let source = try coordinator.addStore(type: "JSON", configuration: "Library", at: folder.file("source.json"))
        try CoordinatorFixtures.fill(source)
        let occupiedBytes = try Data(contentsOf: occupiedURL)

        let destinations = [occupiedURL, try #require(source.url)]
        for url in destinations {
            #expect {
                try coordinator.migratePersistentStore(source, to: url, type: "JSON")
            } throws: { error in
                (error as? StoreError)?.code == .inUse && (error as? StoreError)?.message.contains(url.path) == true
            }
        }
        try coordinator.remove(occupant)
        #expect {
            try coordinator.migratePersistentStore(source, to: occupiedURL, type: "JSON")
        } throws: { error in
            guard let error = error as? StoreError, error.code == .inUse else { return false }
            return error.message.contains("already there") && error.message.contains(occupant.identifier)
        }
        #expect(try Data(contentsOf: occupiedURL) == occupiedBytes)

        let foreignURL = folder.file("notes.txt")
        try Data("Not a store.".utf8).write(to: foreignURL)
        #expect {
            try coordinator.migratePersistentStore(source, to: foreignURL, type: "JSON")
        } throws: { error in
            guard let error = error as? StoreError, error.code == .migrationFailed else { return false }
            return (error.underlying as? StoreError)?.code == .corrupt && error.message.contains("left as it is")
        }
        #expect(try Data(contentsOf: foreignURL) == Data("Not a store.".utf8))
        #expect(coordinator.stores.count == 1 && coordinator.stores[0] === source)
    }

    @Test func aStoreNotAddedOrAnUnknownTypeIsRefused() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator()
        let stray = try InMemoryStore.open(model: coordinator.model)
        #expect {
            try coordinator.migratePersistentStore(stray, to: folder.file("stray.json"), type: "JSON")
        } throws: { error in
            guard let error = error as? StoreError, error.code == .unknownStore else { return false }
            return error.message.contains(stray.identifier)
        }
        let source = try coordinator.addStore(type: StoreType.inMemory.name)
        #expect {
            try coordinator.migratePersistentStore(source, to: folder.file("x.sqlite"), type: "SQLite")
        } throws: { ($0 as? StoreError)?.code == .unknownStoreType }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func anEmptyStoreMovesToAStoreWithoutAFile() throws {
        let coordinator = try coordinator()
        let source = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Scratch")
        let log = ProgressLog()
        let destination = try coordinator.migratePersistentStore(
            source, to: nil, type: StoreType.inMemory.name, progress: log.callback)
        #expect(destination !== source && destination.identifier == source.identifier)
        #expect(coordinator.stores.count == 1 && coordinator.stores[0] === destination)
        expectMonotonic(log.reports.withLock { $0 }, total: 0)
    }
}
