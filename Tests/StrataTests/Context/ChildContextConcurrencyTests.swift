import Testing

@testable import Strata

/// Child contexts on their own queues save into one parent at the same time, while the parent
/// saves to the store between them.
@Suite struct ChildContextConcurrencyTests {
    @Test func manyChildrenSaveIntoOneParentAtOnce() async throws {
        let stack = try CatalogStack()
        let root = stack.context
        let ids = try await withThrowingTaskGroup(of: [ObjectID].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let child = ManagedObjectContext(parent: root, name: "child \(worker)")
                    return try await child.perform {
                        var inserted: [ObjectID] = []
                        for round in 0..<5 {
                            for item in 0..<4 {
                                let book = try child.insert("Book", ["title": .string("\(worker)-\(round)-\(item)")])
                                inserted.append(book.objectID)
                            }
                            try child.save()
                            if round == 2 { try root.performAndWait { try root.save() } }
                        }
                        return try child.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Book"))
                    }
                }
            }
            var seen: [[ObjectID]] = []
            for try await ids in group { seen.append(ids) }
            return seen
        }
        #expect(ids.allSatisfy { $0.count >= 20 })
        try root.performAndWait { () throws in
            #expect(try root.count("Book") == 160)
            try root.save()
        }
        let view = stack.makeContext(name: "store view")
        try view.performAndWait { () throws in #expect(try view.count("Book") == 160) }
    }
}
