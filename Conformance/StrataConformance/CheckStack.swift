import Foundation
import Strata

/// A coordinator with one store and a context, as a check sees them. Every call runs on the
/// context's queue.
final class CheckStack {
    let coordinator: PersistentStoreCoordinator
    let store: any IncrementalStore
    let context: ManagedObjectContext

    init(coordinator: PersistentStoreCoordinator, store: any IncrementalStore, contextName: String? = nil) {
        self.coordinator = coordinator
        self.store = store
        self.context = ManagedObjectContext(coordinator: coordinator, name: contextName)
    }

    /// Runs `body` on the context's queue.
    func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T { try context.performAndWait(body) }

    /// Inserts an object of `entity` with `values` set, without saving.
    @discardableResult
    func insert(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> ManagedObject {
        try run {
            let object = try context.insertNewObject(forEntityName: entity)
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { try object.setValue(value, forKey: key) }
            return object
        }
    }

    /// Saves the context.
    func save() throws { try run { try context.save() } }

    /// Saves `changes` to the store through the coordinator, as a context's save does.
    func save(_ changes: StoreChangeSet) throws { try coordinator.save(changes, to: store) }

    /// A fetch request for `entity`.
    func request(
        _ entity: String, where format: String? = nil, arguments: [any PredicateArgument] = [],
        sortedBy sortDescriptors: [FetchSortDescriptor] = []
    ) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest<ManagedObject>(entityName: entity)
        request.predicate = try format.map { try FetchPredicate(format: $0, arguments: arguments) }
        request.sortDescriptors = sortDescriptors
        return request
    }

    /// The objects `request` fetches, as an array.
    func fetch(_ request: FetchRequest<ManagedObject>) throws -> [ManagedObject] {
        try run { Array(try context.fetch(request)) }
    }

    /// The objects of `entity` matching `format`, sorted.
    func objects(
        _ entity: String, where format: String? = nil, arguments: [any PredicateArgument] = [],
        sortedBy sortDescriptors: [FetchSortDescriptor] = []
    ) throws -> [ManagedObject] {
        try fetch(try request(entity, where: format, arguments: arguments, sortedBy: sortDescriptors))
    }

    /// The value of `key` of `object`, read on the queue.
    func value(_ object: ManagedObject, _ key: String) throws -> AttributeValue {
        try run { try object.value(forKey: key) }
    }
}
