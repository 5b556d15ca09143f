import Foundation
import Strata
import StrataPostgres
import StrataStores

/// README's examples of the container: opening it, inserting and fetching, striping the
/// model's configurations across two stores and moving a store to another type.
enum ContainerExamples {
    /// Opens a container with its default SQLite store in `folder`.
    static func open(model: ManagedObjectModel, in folder: URL) async throws -> PersistentContainer {
        // snippet: container
        let container = try PersistentContainer(name: "Library", model: model, directory: folder)
        try await container.loadPersistentStores()  // opens or creates folder/Library.sqlite
        // end snippet
        return container
    }

    /// Saves an author and a book in the background and fetches the book's title on the main
    /// actor's context.
    @MainActor static func insertAndFetch(in container: PersistentContainer) async throws -> [AttributeValue] {
        // snippet: insert-fetch
        try await container.performBackgroundTask { context in
            let ada = try context.insertNewObject(forEntityName: "Author")
            try ada.setValue(.string("Ada Lovelace"), forKey: "name")
            let notes = try context.insertNewObject(forEntityName: "Book")
            try notes.setValue(.string("Notes"), forKey: "title")
            try notes.setObject(ada, forKey: "author")  // ada's "books" now holds it too
            try context.save()  // permanent IDs, validation, one write per store
        }
        let view = container.viewContext  // the main actor's context, for the interface
        let titles = try view.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = try FetchPredicate(format: "author.name BEGINSWITH[cd] %@", "ada")
            request.sortDescriptors = [FetchSortDescriptor("title")]
            return try view.fetch(request).map { try $0.value(forKey: "title") }
        }
        // end snippet
        return titles
    }

    /// Opens a container whose catalog is in an SQLite store and whose loans are in an LMDB
    /// store, and saves into both.
    static func stripe(model: ManagedObjectModel, in folder: URL) async throws -> PersistentContainer {
        // snippet: striping
        let container = try PersistentContainer(name: "Library", model: model, directory: folder)
        container.persistentStoreDescriptions = [
            .sqlite(
                at: folder.appendingPathComponent("Catalog.sqlite"), configuration: "Catalog",
                options: SQLiteStoreOptions(poolSize: 4, busyTimeout: .seconds(5))),
            .lmdb(at: folder.appendingPathComponent("Desk.lmdb"), configuration: "Desk"),
        ]
        try await container.loadPersistentStores()
        try await container.performBackgroundTask { context in
            let book = try context.insertNewObject(forEntityName: "Book")  // goes to Catalog.sqlite
            try book.setValue(.string("Notes"), forKey: "title")
            let loan = try context.insertNewObject(forEntityName: "Loan")  // goes to Desk.lmdb
            try loan.setValue(.string("Grace"), forKey: "borrower")
            try loan.setValue(.string("Notes"), forKey: "title")
            try context.save()  // both stores, all or nothing
        }
        // end snippet
        return container
    }

    /// Relates a visit in an LMDB store to its city in an SQLite store, and fetches the visits
    /// by their city's name; returns the container and the notes found.
    static func relateAcrossStores(in folder: URL) async throws -> (PersistentContainer, [AttributeValue]) {
        // snippet: cross-store
        let model = ManagedObjectModel {
            EntityDescription("City") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("visits", destination: "Visit", inverse: "city")
            }
            EntityDescription("Visit") {
                AttributeDescription("note", .string)
                RelationshipDescription.toOne("city", destination: "City", inverse: "visits")
            }
            ConfigurationDescription("Atlas", entities: ["City"])
            ConfigurationDescription("Diary", entities: ["Visit"])
        }
        let container = try PersistentContainer(name: "Guide", model: model, directory: folder)
        container.persistentStoreDescriptions = [
            .sqlite(at: folder.appendingPathComponent("Atlas.sqlite"), configuration: "Atlas"),
            .lmdb(at: folder.appendingPathComponent("Diary.lmdb"), configuration: "Diary"),
        ]
        try await container.loadPersistentStores()
        let notes = try await container.performBackgroundTask { context in
            let city = try context.insertNewObject(forEntityName: "City")  // goes to Atlas.sqlite
            try city.setValue(.string("Arcville"), forKey: "name")
            let visit = try context.insertNewObject(forEntityName: "Visit")  // goes to Diary.lmdb
            try visit.setValue(.string("Rain all day"), forKey: "note")
            try visit.setObject(city, forKey: "city")  // each store keeps the other's object ID
            try context.save()  // both stores, all or nothing
            var request = FetchRequest<ManagedObject>(entityName: "Visit")
            request.predicate = try FetchPredicate(format: "city.name == %@", "Arcville")  // two steps, in the stores
            return try context.fetch(request).map { try $0.value(forKey: "note") }
        }
        // end snippet
        return (container, notes)
    }

    /// Opens a container whose catalog is in the PostgreSQL store at `catalogURL`, shared by
    /// every server of an application, and whose loans are in an SQLite file of this machine,
    /// and saves into both.
    static func stripeAcrossMachines(
        model: ManagedObjectModel, catalogURL: URL, in folder: URL
    ) async throws -> PersistentContainer {
        // snippet: striping-postgres
        // catalogURL: postgresql://app@db.example.com:5432/library?schema=catalog
        let container = try PersistentContainer(
            name: "Library", model: model, storeTypes: [.postgres, .sqlite], directory: folder)
        container.persistentStoreDescriptions = [
            .postgres(at: catalogURL, configuration: "Catalog"),  // shared by every server of the app
            .sqlite(at: folder.appendingPathComponent("Desk.sqlite"), configuration: "Desk"),  // this machine's own
        ]
        try await container.loadPersistentStores()
        try await container.performBackgroundTask { context in
            let book = try context.insertNewObject(forEntityName: "Book")  // goes to PostgreSQL
            try book.setValue(.string("Notes"), forKey: "title")
            let loan = try context.insertNewObject(forEntityName: "Loan")  // goes to Desk.sqlite
            try loan.setValue(.string("Grace"), forKey: "borrower")
            try loan.setValue(.string("Notes"), forKey: "title")
            try context.save()  // one transaction per store
        }
        // end snippet
        return container
    }

    /// Opens an SQLite store that records its history, saves as an importer, then reads what
    /// was saved since `lastToken`, merges it into the view context and deletes what was read.
    @MainActor static func followHistory(
        model: ManagedObjectModel, in folder: URL
    ) async throws -> (transactions: [PersistentHistoryTransaction], lastToken: PersistentHistoryToken?) {
        // snippet: history
        var description = PersistentStoreDescription.sqlite(at: folder.appendingPathComponent("Shared.sqlite"))
        description.tracksPersistentHistory = true  // Core Data's NSPersistentHistoryTrackingKey
        let container = try PersistentContainer(name: "Shared", model: model, directory: folder)
        container.persistentStoreDescriptions = [description]
        try await container.loadPersistentStores()
        try await container.performBackgroundTask { context in
            context.transactionAuthor = "importer"
            try context.insertNewObject(forEntityName: "Author").setValue(.string("Grace Hopper"), forKey: "name")
            try context.save()  // one transaction in the store's history
        }
        var lastToken: PersistentHistoryToken? = nil  // kept between launches: tokens are Codable
        var request = PersistentHistoryRequest.fetchHistory(after: .token(lastToken))
        request.transactionPredicate = try FetchPredicate(format: "author == %@", "importer")
        guard case .transactions(let transactions) = try container.coordinator.execute(request) else {
            return ([], nil)
        }
        let view = container.viewContext
        try view.performAndWait {
            for transaction in transactions { try view.mergeChanges(fromHistoryTransaction: transaction) }
        }
        lastToken = transactions.last?.token ?? lastToken
        _ = try container.coordinator.execute(.deleteHistory(before: .token(lastToken)))
        // end snippet
        return (transactions, lastToken)
    }

    /// Opens the shared store in `folder` watching for other processes' saves, runs `others`
    /// (which saves from elsewhere), and returns the first change announced with the context
    /// that merged it.
    @MainActor static func watchOtherProcesses(
        model: ManagedObjectModel, in folder: URL, others: @escaping @Sendable () async throws -> Void
    ) async throws -> (RemoteStoreChange?, ManagedObjectContext) {
        // snippet: remote-changes
        var description = PersistentStoreDescription.sqlite(at: folder.appendingPathComponent("Shared.sqlite"))
        description.tracksPersistentHistory = true
        description.postsRemoteChangeNotifications = true  // NSPersistentStoreRemoteChangeNotificationPostOptionKey
        let container = try PersistentContainer(name: "Shared", model: model, directory: folder)
        container.persistentStoreDescriptions = [description]
        try await container.loadPersistentStores()
        container.viewContext.automaticallyMergesChangesFromParent = true  // other processes' saves merge too
        let changes = container.coordinator.remoteChanges  // the saves found from now on
        // end snippet
        Task.detached { try await others() }
        var first: RemoteStoreChange?
        // snippet: remote-changes-loop
        for await change in changes {  // within remoteChangeInterval (250 ms) of each save elsewhere
            for transaction in change.transactions {
                print("\(transaction.processIdentifier ?? "?") saved \(transaction.changes?.count ?? 0) changes")
            }
            first = change
            break
        }
        // end snippet
        return (first, container.viewContext)
    }

    /// Moves the container's SQLite store into a binary store file in `folder`.
    static func move(_ container: PersistentContainer, in folder: URL) throws {
        // snippet: migration
        for store in container.coordinator.stores where store.typeName == StoreType.sqlite.name {
            try container.coordinator.migratePersistentStore(
                store, to: .binary(at: folder.appendingPathComponent("Catalog.binary")))
        }
        // end snippet
    }

    /// Opens a container with version 4 of the model in `folder`, migrating a store written
    /// with version 1 or 2 as it opens.
    static func openMigrating(in folder: URL) async throws -> PersistentContainer {
        let (version1, version2, version4) = (
            try LibraryModel.version(1), try LibraryModel.version(2), try LibraryModel.version(4)
        )
        // snippet: model-versions
        let container = try PersistentContainer(name: "Library", model: version4, directory: folder)
        // A store of any version listed is stepped to the newest, 1 → 2 → 4 (3 was never shipped):
        // by a mapping model where one is given, by an inferred mapping otherwise.
        container.coordinator.migrationPlan = MigrationPlan(models: [version1, version2, version4])
        try await container.loadPersistentStores()
        // end snippet
        return container
    }
}
