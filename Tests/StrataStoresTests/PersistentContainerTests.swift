import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

@Suite struct PersistentContainerTests {
    @Test @MainActor func defaultDescriptionIsAnSQLiteStoreNamedAfterTheContainer() throws {
        let directory = try TemporaryDirectory()
        let container = try PersistentContainer(
            name: "Guidebook", model: ContainerModel.make(), directory: directory.url)
        let description = try #require(container.persistentStoreDescriptions.first)
        #expect(container.persistentStoreDescriptions.count == 1)
        #expect(description.type == "SQLite")
        #expect(description.url == directory.file("Guidebook.sqlite"))
        #expect(description.configuration == nil)
        #expect(container.viewContext.concurrencyType == .mainQueue)
        #expect(container.newBackgroundContext().concurrencyType == .privateQueue)
        #expect(Set(container.coordinator.storeTypeNames) == ["SQLite", "LMDB", "XML", "Binary", "InMemory"])
    }

    /// A name that would put the default store outside the container's folder (`../x`,
    /// `a/b`, `..`) is refused, naming it, and nothing is created.
    @Test(arguments: ["../Escaped", "nested/Guidebook", "..", ".", ""])
    func aNameThatIsNotAFileNameIsRefused(name: String) throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: StoreError.self) {
            try PersistentContainer(name: name, model: ContainerModel.make(), directory: directory.url)
        }
        #expect(error?.code == .invalidOption)
        #expect(error?.message.contains("'\(name)'") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func defaultDirectoryFollowsTheXDGDataDirectory() {
        #if os(Linux)
            let explicit = PersistentContainer.defaultDirectoryURL(environment: [
                "XDG_DATA_HOME": "/srv/data", "HOME": "/home/ana",
            ])
            #expect(explicit.path == "/srv/data")
            let fallback = PersistentContainer.defaultDirectoryURL(environment: ["HOME": "/home/ana"])
            #expect(fallback.path == "/home/ana/.local/share")
            let relative = PersistentContainer.defaultDirectoryURL(environment: [
                "XDG_DATA_HOME": "data", "HOME": "/home/ana",
            ])
            #expect(relative.path == "/home/ana/.local/share")
        #endif
    }

    @Test func loadsTheDefaultStoreAndSavesInTheBackground() async throws {
        let directory = try TemporaryDirectory()
        let nested = directory.url.appendingPathComponent("nested/deeper")
        let container = try PersistentContainer(name: "Guidebook", model: ContainerModel.make(), directory: nested)
        try await container.loadPersistentStores()
        try await container.performBackgroundTask { context in
            let city = try context.insertNewObject(forEntityName: "City")
            try city.setValue(.string("Lyon"), forKey: "name")
            try context.save()
        }
        #expect(
            try StoreType.builtInFileType(ofFileAt: nested.appendingPathComponent("Guidebook.sqlite")).name == "SQLite")
        let reopened = try PersistentContainer(name: "Guidebook", model: ContainerModel.make(), directory: nested)
        try await reopened.loadPersistentStores()
        let count = try await reopened.performBackgroundTask { context in
            try context.count(for: FetchRequest<ManagedObject>(entityName: "City"))
        }
        #expect(count == 1)
    }

    @Test func asyncLoadListsEveryFailedDescription() async throws {
        let directory = try TemporaryDirectory()
        let container = try PersistentContainer(
            name: "Guidebook", model: ContainerModel.make(), directory: directory.url)
        container.persistentStoreDescriptions = [
            PersistentStoreDescription(type: "Nowhere", url: directory.file("a.store")),
            .inMemory(),
            PersistentStoreDescription(type: "SQLite", url: directory.file("b.sqlite"), configuration: "Missing"),
        ]
        let error = try await #require(throws: PersistentContainerLoadError.self) {
            try await container.loadPersistentStores()
        }
        #expect(error.failures.map(\.storeDescription.type) == ["Nowhere", "SQLite"])
        #expect((error.failures[0].error as? StoreError)?.code == .unknownStoreType)
        #expect((error.failures[1].error as? StoreError)?.code == .unknownConfiguration)
        #expect(error.description.contains("Nowhere store at"))
        #expect(container.coordinator.stores.map(\.typeName) == ["InMemory"])
    }

    @Test func callbackLoadReportsEachDescription() async throws {
        let directory = try TemporaryDirectory()
        let container = try PersistentContainer(
            name: "Guidebook", model: ContainerModel.make(), directory: directory.url)
        var asynchronous = PersistentStoreDescription.lmdb(at: directory.file("later.lmdb"))
        asynchronous.shouldAddStoreAsynchronously = true
        container.persistentStoreDescriptions = [
            .xml(at: directory.file("now.xml")), PersistentStoreDescription(type: "Nowhere"), asynchronous,
        ]
        let reports = AsyncStream<(String, Bool)>.makeStream()
        container.loadPersistentStores { description, error in
            reports.continuation.yield((description.type, error == nil))
        }
        var received: [String: Bool] = [:]
        for await (type, succeeded) in reports.stream {
            received[type] = succeeded
            if received.count == 3 { break }
        }
        #expect(received == ["XML": true, "Nowhere": false, "LMDB": true])
    }
}
