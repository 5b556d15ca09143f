import Foundation
import Testing

@testable import Strata

/// Deleting objects: the nullify, cascade, deny and no-action rules, and deleted objects before and after a save.
@Suite struct ManagedObjectContextDeleteRuleTests {
    /// One entity pair per delete rule, every entity with a name, in one in-memory store.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let store: any IncrementalStore
        let context: ManagedObjectContext

        init() throws {
            let model = ManagedObjectModel {
                EntityDescription("Author") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
                }
                EntityDescription("Book") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                }
                EntityDescription("Library") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany(
                        "shelves", destination: "Shelf", inverse: "library", deleteRule: .cascade)
                }
                EntityDescription("Shelf") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("library", destination: "Library", inverse: "shelves")
                    RelationshipDescription.toMany(
                        "volumes", destination: "Volume", inverse: "shelf", deleteRule: .cascade)
                }
                EntityDescription("Volume") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("shelf", destination: "Shelf", inverse: "volumes")
                }
                EntityDescription("Node") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne(
                        "next", destination: "Node", inverse: "previous", deleteRule: .cascade)
                    RelationshipDescription.toOne("previous", destination: "Node", inverse: "next")
                }
                EntityDescription("Department") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany(
                        "employees", destination: "Employee", inverse: "department", deleteRule: .deny)
                }
                EntityDescription("Employee") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("department", destination: "Department", inverse: "employees")
                }
                EntityDescription("Owner") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("pets", destination: "Pet", inverse: "owner", deleteRule: .noAction)
                }
                EntityDescription("Pet") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("owner", destination: "Owner", inverse: "pets")
                }
            }
            coordinator = try PersistentStoreCoordinator(model: model)
            store = try coordinator.addStore(type: StoreType.inMemory.name)
            context = ManagedObjectContext(coordinator: coordinator)
        }

        @discardableResult
        func insert(_ entity: String, _ name: String, _ key: String? = nil, _ target: ManagedObject? = nil) throws
            -> ManagedObject
        {
            let object = try context.insertNewObject(forEntityName: entity)
            try object.setValue(.string(name), forKey: "name")
            if let key { try object.setObject(target, forKey: key) }
            return object
        }

        /// The names of the entity's objects the context fetches, sorted.
        func names(_ entity: String, includesPendingChanges: Bool = true) throws -> [String] {
            var request = FetchRequest<ManagedObject>(entityName: entity)
            request.sortDescriptors = [FetchSortDescriptor("name")]
            request.includesPendingChanges = includesPendingChanges
            return try context.fetch(request).map { try $0.value(forKey: "name").get(String.self) ?? "-" }
        }

        func storedCount(_ entity: String) throws -> Int {
            guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
            else { return -1 }
            return count
        }

        func stored(_ object: ManagedObject) throws -> Snapshot? {
            try store.snapshot(for: object.objectID)
        }
    }

    @Test func nullifyEmptiesTheToOneInversesOfADeletedObject() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let author = try stack.insert("Author", "Herbert")
            let dune = try stack.insert("Book", "Dune", "author", author)
            let messiah = try stack.insert("Book", "Messiah", "author", author)
            try stack.context.save()

            try stack.context.delete(author)
            #expect(try dune.object(forKey: "author") == nil)
            #expect(try messiah.object(forKey: "author") == nil)
            #expect(dune.isUpdated && messiah.isUpdated)
            #expect(stack.context.updatedObjects == [dune, messiah])

            try stack.context.save()
            #expect(try stack.stored(author) == nil)
            for book in [dune, messiah] {
                let stored = try #require(try stack.stored(book))
                #expect(stored.values["author"] == .null)
                #expect(stored.version == 2)
            }
        }
    }

    @Test func nullifyRemovesADeletedObjectFromItsToManyInverse() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let author = try stack.insert("Author", "Herbert")
            let dune = try stack.insert("Book", "Dune", "author", author)
            let messiah = try stack.insert("Book", "Messiah", "author", author)
            try stack.context.save()

            try stack.context.delete(dune)
            #expect(try author.objects(forKey: "books") == [messiah])
            #expect(author.isUpdated)
            try stack.context.save()
            #expect(try stack.store.relatedObjectIDs(of: author.objectID, relationship: "books") == [messiah.objectID])
            #expect(try stack.stored(author)?.version == 2)
            #expect(try stack.stored(messiah)?.version == 1)
        }
    }

    @Test func cascadeDeletesThroughAChainOfThreeEntities() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let central = try stack.insert("Library", "Central")
            var doomed: Set<ManagedObject> = [central]
            for shelfName in ["A", "B"] {
                let shelf = try stack.insert("Shelf", shelfName, "library", central)
                doomed.insert(shelf)
                for index in 1...2 {
                    doomed.insert(try stack.insert("Volume", "\(shelfName)\(index)", "shelf", shelf))
                }
            }
            let branch = try stack.insert("Library", "Branch")
            let shelf = try stack.insert("Shelf", "C", "library", branch)
            let volume = try stack.insert("Volume", "C1", "shelf", shelf)
            try stack.context.save()

            try stack.context.delete(central)
            #expect(stack.context.deletedObjects == doomed)
            #expect(doomed.allSatisfy { $0.isDeleted })
            #expect(![branch, shelf, volume].contains { $0.isDeleted })
            #expect(try stack.names("Library") == ["Branch"])
            #expect(try stack.names("Shelf") == ["C"])
            #expect(try stack.names("Volume") == ["C1"])

            try stack.context.save()
            #expect(try stack.storedCount("Library") == 1)
            #expect(try stack.storedCount("Shelf") == 1)
            #expect(try stack.storedCount("Volume") == 1)
            #expect(try stack.stored(volume) != nil)
        }
    }

    @Test(arguments: 0..<3) func cascadeThroughACycleDeletesEachObjectOnce(start: Int) throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let ring = try ["a", "b", "c"].map { try stack.insert("Node", $0) }
            for index in ring.indices { try ring[index].setObject(ring[(index + 1) % 3], forKey: "next") }
            let outsider = try stack.insert("Node", "d")
            try stack.context.save()
            #expect(try ring[0].object(forKey: "previous") === ring[2])

            try stack.context.delete(ring[start])
            #expect(stack.context.deletedObjects == Set(ring))
            #expect(!outsider.isDeleted)
            #expect(try stack.names("Node") == ["d"])
            try stack.context.save()
            #expect(try stack.storedCount("Node") == 1)
            #expect(try stack.stored(outsider) != nil)
        }
    }

    @Test func denyRefusesTheSaveNamingTheObjectAndRelationshipAndDeletesNothing() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let department = try stack.insert("Department", "R&D")
            let ada = try stack.insert("Employee", "Ada", "department", department)
            let bob = try stack.insert("Employee", "Bob", "department", department)
            try stack.context.save()

            try stack.context.delete(department)
            #expect(department.isDeleted)
            #expect(try ada.object(forKey: "department") === department)
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .validation)
            let failure = try #require(error.validationErrors.first)
            #expect(error.validationErrors.count == 1)
            #expect(failure.code == .deleteDenied)
            #expect(failure.objectID == department.objectID)
            #expect(failure.key == "employees")
            #expect(failure.message.contains(department.objectID.uriString))
            #expect(failure.message.contains("'Department.employees'"))
            #expect(
                failure.message.contains(ada.objectID.uriString) || failure.message.contains(bob.objectID.uriString))
            #expect(failure.message.contains("and 1 more"))

            #expect(try stack.storedCount("Department") == 1)
            #expect(try stack.storedCount("Employee") == 2)
            #expect(try stack.stored(department)?.version == 1)
            #expect(try stack.stored(ada)?.values["department"] == .objectID(department.objectID))
            #expect(
                Set(try stack.store.relatedObjectIDs(of: department.objectID, relationship: "employees"))
                    == [ada.objectID, bob.objectID])
        }
    }

    @Test func denyAllowsTheDeleteOnceTheRelationshipIsEmpty() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let department = try stack.insert("Department", "R&D")
            let ada = try stack.insert("Employee", "Ada", "department", department)
            let bob = try stack.insert("Employee", "Bob", "department", department)
            let sales = try stack.insert("Department", "Sales")
            try stack.context.save()

            try stack.context.delete(ada)
            try bob.setObject(sales, forKey: "department")
            try stack.context.delete(department)
            try stack.context.save()
            #expect(try stack.stored(department) == nil)
            #expect(try stack.stored(ada) == nil)
            #expect(try stack.stored(bob)?.values["department"] == .objectID(sales.objectID))
            #expect(try stack.storedCount("Department") == 1)
        }
    }

    @Test func noActionLeavesTheDestinationsAlone() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let owner = try stack.insert("Owner", "Ann")
            let rex = try stack.insert("Pet", "Rex", "owner", owner)
            let tom = try stack.insert("Pet", "Tom", "owner", owner)
            try stack.context.save()

            try stack.context.delete(owner)
            #expect(try rex.object(forKey: "owner") === owner)
            #expect(try tom.object(forKey: "owner") === owner)
            #expect(!rex.hasChanges && !tom.hasChanges)
            #expect(stack.context.updatedObjects.isEmpty)
            #expect(stack.context.deletedObjects == [owner])

            try stack.context.save()
            #expect(try stack.stored(owner) == nil)
            #expect(try stack.stored(rex)?.values["owner"] == .objectID(owner.objectID))
            #expect(try stack.stored(rex)?.version == 1)
            #expect(try stack.storedCount("Pet") == 2)
        }
    }

    @Test func deletedObjectsAreLeftOutOfFetchesBeforeTheSave() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let books = try ["A", "B", "C"].map { try stack.insert("Book", $0) }
            let library = try stack.insert("Library", "Central")
            let shelf = try stack.insert("Shelf", "S", "library", library)
            try stack.insert("Volume", "V", "shelf", shelf)
            try stack.context.save()

            try stack.context.delete(books[1])
            try stack.context.delete(library)
            #expect(try stack.names("Book") == ["A", "C"])
            #expect(try stack.names("Volume").isEmpty)
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            #expect(try stack.context.count(for: request) == 2)
            #expect(try !stack.context.fetchObjectIDs(request).contains(books[1].objectID))
            #expect(try stack.names("Book", includesPendingChanges: false) == ["A", "B", "C"])
            #expect(try stack.names("Volume", includesPendingChanges: false) == ["V"])
        }
    }

    @Test func anObjectIsDeletedUntilTheSaveAndThenLeavesTheContext() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", "Dune")
            try stack.context.save()
            let id = book.objectID
            #expect(!book.isDeleted)

            try stack.context.delete(book)
            #expect(book.isDeleted)
            #expect(book.hasChanges)
            #expect(stack.context.hasChanges)
            #expect(stack.context.deletedObjects == [book])
            #expect(stack.context.registeredObject(for: id) === book)

            try stack.context.save()
            #expect(book.managedObjectContext == nil)
            #expect(stack.context.registeredObject(for: id) == nil)
            #expect(stack.context.deletedObjects.isEmpty)
            #expect(try stack.stored(book) == nil)
        }
    }

    @Test func deletingANewObjectWhoseToManyRelationshipWasNeverUsedForgetsIt() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let author = try stack.insert("Author", "Nobody")
            let library = try stack.insert("Library", "Empty")
            try stack.context.delete(author)
            try stack.context.delete(library)
            #expect(author.isDeleted && library.isDeleted)
            try stack.context.save()
            #expect(author.managedObjectContext == nil)
            #expect(library.managedObjectContext == nil)
            #expect(try stack.storedCount("Author") == 0)
            #expect(try stack.storedCount("Library") == 0)
        }
    }

    @Test func deletingANewObjectForgetsIt() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let author = try stack.insert("Author", "Herbert")
            try stack.context.save()
            let book = try stack.insert("Book", "Draft", "author", author)
            let library = try stack.insert("Library", "Pop-up")
            let shelf = try stack.insert("Shelf", "S", "library", library)
            #expect(try author.objects(forKey: "books") == [book])

            try stack.context.delete(book)
            try stack.context.delete(library)
            #expect(!book.isInserted && !library.isInserted && !shelf.isInserted)
            #expect(stack.context.insertedObjects.isEmpty)
            #expect(try author.objects(forKey: "books").isEmpty)
            #expect(!author.isUpdated)
            #expect(try stack.names("Book").isEmpty)
            #expect(try stack.names("Shelf").isEmpty)

            try stack.context.save()
            #expect(!stack.context.hasChanges)
            for object in [book, library, shelf] {
                #expect(object.managedObjectContext == nil)
                #expect(stack.context.registeredObject(for: object.objectID) == nil)
            }
            #expect(try stack.storedCount("Book") == 0)
            #expect(try stack.storedCount("Library") == 0)
            #expect(try stack.storedCount("Shelf") == 0)
            #expect(try stack.stored(author)?.version == 1)
        }
    }
}
