import Testing

@testable import Strata

/// A child's save that meets an object its parent changed after the child read it is a
/// conflict, settled by the child's merge policy as a conflict with a store is.
@Suite struct ChildContextConflictTests {
    let stack: CatalogStack
    let dune: ObjectID

    init() throws { (stack, dune) = try CatalogStack.withDune() }

    /// A child that has read Dune, with `policy`.
    func child(_ policy: MergePolicy, name: String = "child") throws -> ManagedObjectContext {
        let child = ManagedObjectContext(parent: stack.context, name: name)
        try child.performAndWait {
            child.mergePolicy = policy
            _ = try child.object(with: dune).value(forKey: "title")
        }
        return child
    }

    /// Sets `key` of Dune to `value` in `context`.
    func set(_ key: String, _ value: AttributeValue, in context: ManagedObjectContext) throws {
        try context.performAndWait { try context.object(with: dune).setValue(value, forKey: key) }
    }

    /// Dune's title and pages as `context` holds them.
    func titleAndPages(in context: ManagedObjectContext) throws -> (String, AttributeValue) {
        try context.performAndWait {
            let book = context.object(with: dune)
            return (try book.text("title"), try book.value(forKey: "pages"))
        }
    }

    @Test func theErrorPolicyFailsTheSaveListingTheConflict() throws {
        let child = try child(.error)
        try set("pages", 500, in: stack.context)
        try set("title", "Dune!", in: child)
        let error = try child.performAndWait {
            #expect(throws: ContextError.self) { try child.save() }
            #expect(child.hasChanges)
            do {
                try child.save()
                return nil as ContextError?
            } catch let error as ContextError {
                return error
            }
        }
        #expect(error?.code == .mergeConflict)
        let conflict = try #require(error?.conflicts.first)
        #expect(conflict.objectID == dune)
        #expect(conflict.cachedVersion == 1)
        #expect(conflict.storedVersion == 2)
        #expect(conflict.changedKeys.contains("title"))
        #expect(!conflict.changedKeys.contains("pages"))
        #expect(try titleAndPages(in: stack.context) == ("Dune", .integer32(500)))
    }

    @Test func objectTrumpKeepsTheChildsChangesAndTheParentsOthers() throws {
        let child = try child(.mergeByPropertyObjectTrump)
        try set("pages", 500, in: stack.context)
        try set("title", "Dune!", in: child)
        try child.performAndWait { try child.save() }
        #expect(try titleAndPages(in: stack.context) == ("Dune!", .integer32(500)))
        #expect(try titleAndPages(in: child) == ("Dune!", .integer32(500)))
    }

    @Test func storeTrumpLetsTheParentsChangeWinTheKeyBothChanged() throws {
        let child = try child(.mergeByPropertyStoreTrump)
        try set("pages", 500, in: stack.context)
        try set("pages", 600, in: child)
        try set("title", "Dune!", in: child)
        try child.performAndWait { try child.save() }
        #expect(try titleAndPages(in: stack.context) == ("Dune!", .integer32(500)))
    }

    @Test func siblingsSavingTheSameObjectConflictAndOverwriteWins() throws {
        let first = try child(.error, name: "first")
        let second = try child(.error, name: "second")
        try set("title", "First's Dune", in: first)
        try first.performAndWait { try first.save() }
        try set("pages", 7, in: second)
        try second.performAndWait {
            #expect { try second.save() } throws: { ($0 as? ContextError)?.code == .mergeConflict }
            second.mergePolicy = .overwrite
            try second.save()
        }
        #expect(try titleAndPages(in: stack.context) == ("Dune", .integer32(7)))
    }

    @Test func aChildThatReadAfterTheParentChangedSavesWithoutConflict() throws {
        try set("pages", 500, in: stack.context)
        let child = try child(.error)
        try set("title", "Dune!", in: child)
        try child.performAndWait { try child.save() }
        try child.performAndWait {
            try child.object(with: dune).setValue(501, forKey: "pages")
            try child.save()
        }
        #expect(try titleAndPages(in: stack.context) == ("Dune!", .integer32(501)))
    }

    @Test func anObjectTheParentDeletedIsDroppedUnderATrumpingPolicy() throws {
        let strict = try child(.error, name: "strict")
        let lenient = try child(.mergeByPropertyObjectTrump, name: "lenient")
        try stack.context.performAndWait { try stack.context.delete(stack.context.object(with: dune)) }
        try set("title", "Dune!", in: strict)
        try set("title", "Dune!", in: lenient)
        let error = strict.performAndWait { () -> ContextError? in
            do {
                try strict.save()
                return nil
            } catch {
                return error as? ContextError
            }
        }
        #expect(error?.conflicts.map(\.objectID) == [dune])
        #expect(error?.conflicts.first?.storedVersion == nil)
        try lenient.performAndWait {
            try lenient.save()
            #expect(lenient.registeredObject(for: dune) == nil)
            #expect(!lenient.hasChanges)
        }
    }
}
