import Strata

extension ManagedObjectContext {
    /// Inserts an object of `entity` with `values`; call it on the context's queue.
    @discardableResult
    func insert(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> ManagedObject {
        let object = try insertNewObject(forEntityName: entity)
        for (key, value) in values { try object.setValue(value, forKey: key) }
        return object
    }
}
