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

    /// The ID of every object of the indexed entities in the store, in export order
    /// (``precedes(_:_:)``).
    func allObjectIDs() throws -> [ObjectID] {
        try context.performAndWait {
            var ids: [ObjectID] = []
            for name in entities.keys {
                var request = FetchRequest<ManagedObject>(entityName: name)
                request.includesSubentities = false
                request.affectedStores = [store]
                ids += try context.fetchObjectIDs(request)
            }
            return ids.sorted(by: Self.precedes)
        }
    }

    /// The order of a first export: by entity name, then by reference (integers in numeric
    /// order, then strings, then temporary references), so that an export can go on after the
    /// last object it wrote.
    static func precedes(_ first: ObjectID, _ second: ObjectID) -> Bool {
        if first.entityName != second.entityName { return first.entityName < second.entityName }
        switch (first.reference, second.reference) {
        case (.integer(let left), .integer(let right)): return left < right
        case (.string(let left), .string(let right)): return left < right
        case (.temporary(let left), .temporary(let right)): return left.uuidString < right.uuidString
        case (.integer, _): return true
        case (.string, .temporary): return true
        default: return false
        }
    }

    /// The entries of the objects `ids` names, and the URIs of those the store no longer holds
    /// or the fields hook leaves out.
    func entries(for ids: [ObjectID]) throws -> (rows: [SearchIndex.Row], left: [String]) {
        guard !ids.isEmpty else { return ([], []) }
        return try context.performAndWait {
            defer { context.reset() }
            let evaluation = FetchEvaluation()
            var rows: [SearchIndex.Row] = []
            var left: [String] = []
            var found: Set<ObjectID> = []
            for (name, group) in Dictionary(grouping: ids, by: \.entityName) {
                guard let entity = entities[name] else { continue }
                var request = FetchRequest<ManagedObject>(entityName: name)
                request.predicate = .comparison(
                    ComparisonPredicate(.evaluatedObject, .in, .aggregate(group.map { .constant(.objectID($0)) })))
                request.includesSubentities = false
                request.returnsObjectsAsFaults = false
                request.affectedStores = [store]
                for object in try context.fetch(request) {
                    found.insert(object.objectID)
                    let made = try entity.defaultFields(of: object, in: evaluation)
                    guard let shaped = try shape(object, made) else {
                        left.append(object.objectID.uriString)
                        continue
                    }
                    rows.append(
                        SearchIndex.Row(
                            uri: object.objectID.uriString, entityName: name, title: shaped.title, text: shaped.text,
                            keywords: shaped.keywords))
                }
            }
            if found.count < ids.count { left += ids.filter { !found.contains($0) }.map(\.uriString) }
            return (rows, left)
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
