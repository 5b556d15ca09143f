import Foundation

@testable import Strata

extension CatalogStack {
    /// A catalog whose main context records its changes for undo.
    static func undoable() throws -> CatalogStack {
        let stack = try CatalogStack()
        stack.context.performAndWait { stack.context.undoManager = ContextUndoManager() }
        return stack
    }

    /// The context's undo manager; call on the context's queue.
    var undoManager: ContextUndoManager {
        guard let manager = context.undoManager else { preconditionFailure("The catalog records no undo.") }
        return manager
    }

    /// Inserts an object of `entity` with `values` in a perform block of its own, so that it is
    /// one undo group.
    @discardableResult
    func insertInBlock(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> ManagedObject {
        try context.performAndWait { try insert(entity, values) }
    }

    /// The objects of `entity` the main context fetches, with pending changes.
    func fetched(_ entity: String) throws -> [ManagedObject] {
        try context.performAndWait { Array(try context.fetch(FetchRequest<ManagedObject>(entityName: entity))) }
    }

    /// How many saved objects of `entity` the store holds.
    func storedCount(_ entity: String) throws -> Int {
        guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
        else { return -1 }
        return count
    }
}
