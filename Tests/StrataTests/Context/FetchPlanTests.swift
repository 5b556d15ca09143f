import Testing

@testable import Strata

/// How the coordinator's router plans a fetch for a context (``FetchPlan``).
@Suite struct FetchPlanTests {
    /// One in-memory store per configuration of `configurations` of the fetch tests' model.
    private func coordinator(_ configurations: [String]) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(model: ManagedObjectContextFetchTests.Stack.model)
        for configuration in configurations {
            try coordinator.addStore(type: StoreType.inMemory.name, configuration: configuration)
        }
        return coordinator
    }

    private func booksByAuthor(in stores: [any IncrementalStore]? = nil) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.predicate = try FetchPredicate(format: "author.name == %@", "Ada")
        request.sortDescriptors = [FetchSortDescriptor("author.name")]
        request.affectedStores = stores
        return request
    }

    /// Books in both stores, authors in the second only: `Book.author` leaves the first store,
    /// not the books' stores, so a request searching the first alone is not rewritten.
    @Test func aKeyPathStaysWhenAStoreHoldingTheEntityHoldsItsDestinationWhateverTheAffectedStores() throws {
        let coordinator = try coordinator(["Loose", "Shelf"])
        let context = ManagedObjectContext(coordinator: coordinator)
        let loose = try #require(coordinator.stores.first)
        try context.performAndWait {
            let request = try booksByAuthor(in: [loose])
            let plan = try context.plan(request)
            #expect(plan.predicate == request.predicate)
            #expect(plan.sortPathsAcrossStores.isEmpty)
            #expect(plan.stores.count == 1 && plan.stores.first === loose)
        }
    }

    @Test func aKeyPathLeavingEveryStoreOfTheEntityBecomesAMembershipTestAndAnInMemorySort() throws {
        let coordinator = try coordinator(["Loose", "Authors"])
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let ada = try context.insertNewObject(forEntityName: "Author")
            try ada.setValue(.string("Ada"), forKey: "name")
            try context.save()
            let plan = try context.plan(try booksByAuthor())
            let membership = FetchPredicate.comparison(
                ComparisonPredicate(.keyPath("author"), .in, .aggregate([.constant(.objectID(ada.objectID))])))
            #expect(plan.predicate == membership)
            #expect(plan.sortPathsAcrossStores == ["author"])
            guard case .merged(let legs) = plan.route else {
                Issue.record("A sort across stores is done in memory, after every store's candidates.")
                return
            }
            #expect(legs.map(\.request.sortDescriptors) == [[]])
        }
    }

    @Test func anUnknownEntityIsNamedWhateverTheNumberOfStores() throws {
        for configurations in [["Shelf"], ["Loose", "Authors"]] {
            let context = ManagedObjectContext(coordinator: try coordinator(configurations))
            try context.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: "Magazine")
                for attempt in [{ _ = try context.fetch(request) }, { _ = try context.count(for: request) }] {
                    let error = try #require(throws: ContextError.self, performing: attempt)
                    #expect(error.code == .unknownEntity)
                    #expect(error.message.contains("'Magazine'"))
                }
            }
        }
    }
}
