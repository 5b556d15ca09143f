import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// README's examples run and do what README says they do.
@Suite struct ReadmeExampleTests {
    @Test func theModelHasTwoConfigurations() throws {
        let model = try LibraryModel.make()
        #expect(model.entityNames(inConfiguration: "Catalog").sorted() == ["Author", "Book"])
        #expect(model.entityNames(inConfiguration: "Desk") == ["Loan"])
    }

    @Test @MainActor func aSearchFindsThePhotoByItsTagAndCaptionAndResolvesIt() async throws {
        let directory = try TemporaryDirectory()
        #expect(try await SearchExamples.findPhotos(matching: "india", in: directory.url) == ["Taj Mahal"])
        let again = try TemporaryDirectory()
        #expect(try await SearchExamples.findPhotos(matching: "riv* morning", in: again.url) == ["Taj Mahal"])
        let none = try TemporaryDirectory()
        #expect(try await SearchExamples.findPhotos(matching: "lisbon", in: none.url).isEmpty)
        #expect(FileManager.default.fileExists(atPath: directory.file("Photos.sqlite.search").path))
    }

    @Test @MainActor func aContainerSavesInTheBackgroundAndFetchesOnTheMainActor() async throws {
        let directory = try TemporaryDirectory()
        let container = try await ContainerExamples.open(model: LibraryModel.make(), in: directory.url)
        #expect(try StoreType.builtInFileType(ofFileAt: directory.file("Library.sqlite")).name == "SQLite")
        let titles = try await ContainerExamples.insertAndFetch(in: container)
        #expect(titles == [.string("Notes")])
    }

    @Test @MainActor func typedClassesInsertAndATypedRequestFetches() async throws {
        let directory = try TemporaryDirectory()
        let container = try await ContainerExamples.open(model: TypedExamples.model(), in: directory.url)
        #expect(try await TypedExamples.insertAndFetch(in: container) == ["A Manual"])
    }

    @Test func theClassesDescribeTheBuiltModel() throws {
        let classes = try TypedExamples.model()
        try classes.freeze()
        let built = try LibraryModel.make()
        #expect(classes.schema.entityVersionHashes == built.schema.entityVersionHashes)
        #expect(classes.configurations == built.configurations)
    }

    @Test @MainActor func observedBooksFollowTheirChanges() async throws {
        let directory = try TemporaryDirectory()
        let container = try await ContainerExamples.open(model: TypedExamples.model(), in: directory.url)
        _ = try await TypedExamples.insertAndFetch(in: container)
        let (after, fired) = try await TypedExamples.observe(in: container)
        #expect(after == ["A Memo", "The Manual"])
        #expect(fired)
    }

    @Test @MainActor func aStoreOfAnOlderModelVersionIsMigratedAsItOpens() async throws {
        let directory = try TemporaryDirectory()
        let old = try await ContainerExamples.open(model: LibraryModel.make(), in: directory.url)
        _ = try await ContainerExamples.insertAndFetch(in: old)
        for store in old.coordinator.stores { try old.coordinator.remove(store) }
        let container = try await ContainerExamples.openMigrating(in: directory.url)
        let names = try await container.performBackgroundTask { context in
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Author")).map {
                try $0.value(forKey: "fullName")
            }
        }
        #expect(names == [.string("Ada Lovelace")])
        let metadata = try #require(try StoreType.sqlite.metadata(ofFileAt: directory.file("Library.sqlite")))
        #expect(metadata.versionIdentifiers == ["4"])
    }

    @Test @MainActor func anImportersSavesAreReadFromTheHistoryMergedAndDeleted() async throws {
        let directory = try TemporaryDirectory()
        let (transactions, lastToken) = try await ContainerExamples.followHistory(
            model: LibraryModel.make(), in: directory.url)
        #expect(transactions.map(\.author) == ["importer"])
        #expect(transactions.first?.changes?.map(\.changeType) == [.insert])
        #expect(lastToken?.transactionNumber == 1)
        let coordinator = try PersistentStoreCoordinator(model: LibraryModel.make(), storeTypes: [.sqlite])
        try await coordinator.addStore(
            type: "SQLite", at: directory.file("Shared.sqlite"), options: StoreOptions(tracksPersistentHistory: true))
        #expect(try coordinator.execute(.fetchHistory(after: .token(nil))) == .transactions([]))
    }

    @Test @MainActor func anotherCoordinatorsSaveIsAnnouncedAndMerged() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Shared.sqlite")
        let (change, view) = try await ContainerExamples.watchOtherProcesses(
            model: LibraryModel.make(), in: directory.url
        ) {
            let other = try PersistentStoreCoordinator(model: LibraryModel.make(), storeTypes: [.sqlite])
            try other.addStore(type: "SQLite", at: url, options: StoreOptions(tracksPersistentHistory: true))
            let context = ManagedObjectContext(coordinator: other)
            try context.performAndWait { () throws in
                context.transactionAuthor = "elsewhere"
                try context.insertNewObject(forEntityName: "Author").setValue(.string("Ada"), forKey: "name")
                try context.save()
            }
        }
        let transactions = try #require(change?.transactions)
        #expect(transactions.map(\.author) == ["elsewhere"])
        let names = try view.performAndWait { () throws in
            try view.fetch(FetchRequest<ManagedObject>(entityName: "Author")).map { try $0.value(forKey: "name") }
        }
        #expect(names == [.string("Ada")])
    }

    @Test func stripedStoresHoldTheirConfigurationsAndMoveToABinaryStore() async throws {
        let directory = try TemporaryDirectory()
        let container = try await ContainerExamples.stripe(model: LibraryModel.make(), in: directory.url)
        #expect(container.coordinator.stores.map(\.typeName) == ["SQLite", "LMDB"])
        try ContainerExamples.move(container, in: directory.url)
        #expect(container.coordinator.stores.map(\.typeName) == ["Binary", "LMDB"])
        #expect(try StoreType.builtInFileType(ofFileAt: directory.file("Catalog.binary")).name == "Binary")
        let counts = try await container.performBackgroundTask { context in
            try ["Book", "Loan"].map { try context.count(for: FetchRequest<ManagedObject>(entityName: $0)) }
        }
        #expect(counts == [1, 1])
        let reopened = try PersistentStoreCoordinator(model: LibraryModel.make(), storeTypes: [.sqlite])
        try await reopened.addStore(type: "SQLite", configuration: "Catalog", at: directory.file("Catalog.sqlite"))
        let context = ManagedObjectContext(coordinator: reopened)
        let sourceBooks = try context.performAndWait {
            try context.count(for: FetchRequest<ManagedObject>(entityName: "Book"))
        }
        #expect(sourceBooks == 1, "the source store is only read")
    }

    @Test func aVisitInLMDBPointsAtItsCityInSQLiteAfterReopening() async throws {
        let directory = try TemporaryDirectory()
        let (container, notes) = try await ContainerExamples.relateAcrossStores(in: directory.url)
        #expect(notes == [.string("Rain all day")])
        #expect(container.coordinator.stores.map(\.typeName) == ["SQLite", "LMDB"])
        let reopened = try PersistentStoreCoordinator(model: container.model, storeTypes: StoreType.builtInFileTypes)
        try await reopened.addStore(type: "SQLite", configuration: "Atlas", at: directory.file("Atlas.sqlite"))
        try await reopened.addStore(type: "LMDB", configuration: "Diary", at: directory.file("Diary.lmdb"))
        let context = ManagedObjectContext(coordinator: reopened)
        let cityNames = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Visit")).map {
                try $0.object(forKey: "city")?.value(forKey: "name")
            }
        }
        #expect(cityNames == [.string("Arcville")])
    }

    @Test func aCatalogInPostgreSQLAndLoansInSQLiteAreSavedTogether() async throws {
        let directory = try TemporaryDirectory()
        let catalogURL = PostgresTestServer.storeURL(schema: PostgresTestServer.uniqueSchema("readme"))
        let container = try await ContainerExamples.stripeAcrossMachines(
            model: LibraryModel.make(), catalogURL: catalogURL, in: directory.url)
        #expect(container.coordinator.stores.map(\.typeName) == ["PostgreSQL", "SQLite"])
        let reopened = try PersistentStoreCoordinator(model: LibraryModel.make(), storeTypes: [.postgres])
        try await reopened.addStore(type: "PostgreSQL", configuration: "Catalog", at: catalogURL)
        let context = ManagedObjectContext(coordinator: reopened)
        let books = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).map { try $0.value(forKey: "title") }
        }
        #expect(books == [.string("Notes")])
        #expect(FileManager.default.fileExists(atPath: directory.file("Desk.sqlite").path))
    }

    @Test func theRecordFileStoreKeepsObjectsAcrossOpenings() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.records")
        let model = try LibraryModel.make()
        let writer = try PersistentStoreCoordinator(model: model, storeTypes: [.recordFile])
        try writer.addStore(type: "RecordFile", configuration: "Desk", at: url)
        let context = ManagedObjectContext(coordinator: writer)
        try context.performAndWait {
            let loan = try context.insertNewObject(forEntityName: "Loan")
            try loan.setValue(.string("Grace"), forKey: "borrower")
            try context.save()
        }
        let reader = try PersistentStoreCoordinator(model: model, storeTypes: [.recordFile])
        try reader.addStore(
            type: "RecordFile", configuration: "Desk", at: url, options: StoreOptions(isReadOnly: true))
        let readContext = ManagedObjectContext(coordinator: reader)
        let borrowers = try readContext.performAndWait {
            try readContext.fetch(FetchRequest<ManagedObject>(entityName: "Loan")).map {
                try $0.value(forKey: "borrower")
            }
        }
        #expect(borrowers == [.string("Grace")])
    }
}
