import Foundation
import Strata
import StrataSQLite
import StrataTestSupport
import Testing

/// A model written as classes feeds migration: original names rename entities and attributes,
/// and a store of the old classes' model migrates to the new one without a mapping model.
@Suite struct ClassModelMigrationTests {
    enum Version1 {
        final class Author: ManagedObject {
            @Managed var name: String
        }
    }

    enum Version2 {
        final class Writer: ManagedObject {
            override class var entityOptions: EntityOptions { EntityOptions(originalName: "Author") }
            @Managed(.originalName("name")) var fullName: String
            @Managed var born: Int16?
        }
    }

    @Test func originalNamesRenameEntitiesAndAttributes() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        let old = try ManagedObjectModel(types: [Version1.Author.self])
        do {
            let coordinator = try PersistentStoreCoordinator(model: old, storeTypes: [.sqlite])
            try coordinator.addStore(type: "SQLite", at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.performAndWait {
                for name in ["Ada", "Grace"] { Version1.Author(context: context).name = name }
                try context.save()
            }
        }
        let new = try ManagedObjectModel(types: [Version2.Writer.self])
        #expect(new.entity(named: "Writer")?.renamingIdentifier == "Author")

        let steps = try MigrationPlan(models: [old, new]).migrateStore(at: url, type: .sqlite, to: new)

        #expect(steps.map(\.isInferred) == [true])
        let coordinator = try PersistentStoreCoordinator(model: new, storeTypes: [.sqlite])
        try coordinator.addStore(type: "SQLite", at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let writers = try context.performAndWait {
            try context.fetch(FetchRequest<Version2.Writer>(sortBy: [SortDescriptor(\.fullName)])).map(\.fullName)
        }
        #expect(writers == ["Ada", "Grace"])
    }
}
