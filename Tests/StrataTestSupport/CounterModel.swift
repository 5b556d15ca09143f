import Strata

/// The model of tests where several processes update one object and insert their own: a
/// shared `Counter` (name, value) and `Entry` objects tagged with their writer.
public enum CounterModel {
    /// `Counter` with `name` (string) and `value` (integer 64); `Entry` with `writer` (string)
    /// and `serial` (integer 64).
    public static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Counter") {
                AttributeDescription("name", .string)
                AttributeDescription("value", .integer64)
            }
            EntityDescription("Entry") {
                AttributeDescription("writer", .string)
                AttributeDescription("serial", .integer64)
            }
        }
        try! model.freeze()  // A fixed, valid model: freezing cannot fail.
        return model
    }()

    /// Adds one to the value of the counter called `name` and inserts an entry tagged `writer`
    /// numbered `serial`, in one save through `context`; on a conflict, reloads the counter
    /// and tries again. Returns how many conflicts it met.
    public static func increment(
        _ name: String, writer: String, serial: Int64, in context: ManagedObjectContext
    ) throws -> Int {
        try context.performAndWait { () throws -> Int in
            var request = FetchRequest<ManagedObject>(entityName: "Counter")
            request.predicate = try FetchPredicate(format: "name == %@", name)
            guard let counter = try context.fetch(request).first else {
                throw ContextError(code: .objectNotFound, message: "There is no counter '\(name)'.")
            }
            let entry = try context.insertNewObject(forEntityName: "Entry")
            try entry.setValue(.string(writer), forKey: "writer")
            try entry.setValue(.integer64(serial), forKey: "serial")
            for conflicts in 0..<10_000 {
                let current = try counter.value(forKey: "value").get(Int64.self) ?? 0
                try counter.setValue(.integer64(current + 1), forKey: "value")
                do {
                    try context.save()
                    return conflicts
                } catch let error as ContextError where error.code == .mergeConflict {
                    try context.refresh(counter, mergeChanges: false)
                }
            }
            throw ContextError(code: .mergeConflict, message: "Counter '\(name)' conflicted 10,000 times in a row.")
        }
    }
}
