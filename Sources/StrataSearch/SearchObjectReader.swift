import Foundation
import Strata

/// Reads the objects an exporter indexes through a context of its own, and makes their entries.
struct SearchObjectReader {
    let coordinator: PersistentStoreCoordinator
    let store: any IncrementalStore
    let entities: [String: SearchedEntity]
    let fields: SearchIndexExporter.FieldsHook?
    let context: ManagedObjectContext

    init(
        coordinator: PersistentStoreCoordinator, store: any IncrementalStore, entities: [SearchedEntity],
        fields: SearchIndexExporter.FieldsHook?
    ) {
        self.coordinator = coordinator
        self.store = store
        self.entities = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        self.fields = fields
        context = ManagedObjectContext(coordinator: coordinator, name: "SearchIndexExporter")
    }

    /// Whether the object `id` names is one the index holds.
    func indexes(_ id: ObjectID) -> Bool {
        id.storeIdentifier == store.identifier && entities[id.entityName] != nil
    }

    /// The ID of every object of the indexed entities in the store, with its URI, in URI order.
    func allObjectIDs() throws -> [(uri: String, id: ObjectID)] {
        try context.performAndWait {
            var ids: [(uri: String, id: ObjectID)] = []
            for name in entities.keys {
                var request = FetchRequest<ManagedObject>(entityName: name)
                request.includesSubentities = false
                request.affectedStores = [store]
                ids += try context.fetchObjectIDs(request).map { ($0.uriRepresentation.absoluteString, $0) }
            }
            return ids.sorted { $0.uri < $1.uri }
        }
    }

    /// The entries of the objects `ids` names, and the URIs of those the store no longer holds
    /// or the fields hook leaves out.
    func entries(for ids: [ObjectID]) throws -> (entries: [SearchIndex.Entry], left: [URL]) {
        guard !ids.isEmpty else { return ([], []) }
        return try context.performAndWait {
            defer { context.reset() }
            let evaluation = FetchEvaluation()
            var entries: [SearchIndex.Entry] = []
            var found: Set<ObjectID> = []
            for (name, group) in Dictionary(grouping: ids, by: \.entityName) {
                guard let entity = entities[name] else { continue }
                var request = FetchRequest<ManagedObject>(entityName: name)
                request.predicate = try FetchPredicate(format: "SELF IN %@", group)
                request.includesSubentities = false
                request.returnsObjectsAsFaults = false
                request.affectedStores = [store]
                for object in try context.fetch(request) {
                    found.insert(object.objectID)
                    let made = try entity.defaultFields(of: object, in: evaluation)
                    guard let shaped = try shape(object, made) else { continue }
                    entries.append(
                        SearchIndex.Entry(
                            uri: object.objectID.uriRepresentation, entityName: name, title: shaped.title,
                            text: shaped.text, keywords: shaped.keywords))
                }
            }
            let left = ids.filter { !found.contains($0) }.map(\.uriRepresentation)
            let kept = Set(entries.map(\.uri))
            return (entries, left + found.map(\.uriRepresentation).filter { !kept.contains($0) })
        }
    }

    /// What the fields hook makes of `object`'s fields; the fields themselves without a hook.
    private func shape(_ object: ManagedObject, _ fields: SearchableFields) throws -> SearchableFields? {
        guard let hook = self.fields else { return fields }
        do {
            return try hook(object, fields)
        } catch {
            throw SearchError(
                code: .export,
                message:
                    "The search fields hook failed for \(object.objectID.uriRepresentation.absoluteString): \(error)"
            )
        }
    }
}
