import Foundation

/// Keeps an observed fetch's last results on its context's queue and works out how each change
/// of the context moves them.
final class FetchedResultsTracker<Result: ManagedObject> {
    /// Unowned: the tracker lives in an observer the context holds, so it never outlives it.
    private unowned let context: ManagedObjectContext
    private let request: FetchRequest<Result>
    private let sectionKeyPath: String?
    private let entityNames: Set<String>
    /// The objects last reported, with their places.
    private var placed: [Placement] = []
    /// The IDs last reported, section by section.
    private var reported: [FetchedSection] = []

    /// Where an object is: its index path and its section's name.
    struct Placement {
        let object: ManagedObject
        let path: ResultIndexPath
        let section: String
    }

    init(context: ManagedObjectContext, request: FetchRequest<Result>, sectionKeyPath: String?) throws {
        self.context = context
        self.request = request
        self.sectionKeyPath = sectionKeyPath
        guard let entity = context.schema.entitiesByName[request.entityName] else {
            throw ContextError(
                code: .unknownEntity, message: "The model has no entity '\(request.entityName)' to observe.")
        }
        entityNames = Set(entity.names(includingSubentities: request.includesSubentities))
    }

    /// The current results, with no changes: the first update.
    func start() throws -> FetchedResultsUpdate {
        let sections = try fetchSections()
        placed = Self.placements(of: sections)
        reported = sections.map(Self.sendable)
        return FetchedResultsUpdate(sections: reported, changes: [])
    }

    /// The results after `changes`, or `nil` when they touch no object of the fetched entities
    /// or change nothing in the results. After a save, no object counts as changed: the save
    /// wrote changes already reported.
    func update(after changes: ContextChanges) throws -> FetchedResultsUpdate? {
        let touched = changes.insertedObjects.union(changes.updatedObjects).union(changes.deletedObjects)
            .union(changes.refreshedObjects)
        guard touched.contains(where: { entityNames.contains($0.entity.name) }) else { return nil }
        let sections = try fetchSections()
        let now = Self.placements(of: sections)
        let changed =
            changes.kind == .didSave
            ? [] : Set(changes.updatedObjects.union(changes.refreshedObjects).map(ObjectIdentifier.init))
        let differences = Self.changes(from: placed, to: now, changed: changed)
        let current = sections.map(Self.sendable)
        placed = now
        // A save changes new objects' IDs without moving them: report the new IDs.
        guard !differences.isEmpty || current != reported else { return nil }
        reported = current
        return FetchedResultsUpdate(sections: current, changes: differences)
    }

    private func fetchSections() throws -> [(name: String, objects: [ManagedObject])] {
        let objects = try context.fetchObjectIDs(request).map { context.object(with: $0) }
        guard let sectionKeyPath else { return [("", objects)] }
        var sections: [(name: String, objects: [ManagedObject])] = []
        for object in objects {
            let name = try Self.sectionName(object.value(forKeyPath: sectionKeyPath))
            if sections.last?.name == name {
                sections[sections.count - 1].objects.append(object)
            } else {
                sections.append((name, [object]))
            }
        }
        return sections
    }

    private static func sendable(_ section: (name: String, objects: [ManagedObject])) -> FetchedSection {
        FetchedSection(name: section.name, objectIDs: section.objects.map(\.objectID))
    }

    private static func placements(of sections: [(name: String, objects: [ManagedObject])]) -> [Placement] {
        sections.enumerated().flatMap { section, entry in
            entry.objects.enumerated().map { item, object in
                Placement(object: object, path: ResultIndexPath(section: section, item: item), section: entry.name)
            }
        }
    }

    /// The changes from `old` to `new`, objects matched by identity (an object keeps its
    /// identity when a save gives it a permanent ID). Objects in both keep their place when
    /// they stay in their section and belong to the longest run whose relative order did not
    /// change; the others moved. Kept objects in `changed` are updates.
    static func changes(from old: [Placement], to new: [Placement], changed: Set<ObjectIdentifier>)
        -> [FetchedResultsChange]
    {
        let newIndex = Dictionary(uniqueKeysWithValues: new.enumerated().map { (ObjectIdentifier($1.object), $0) })
        let oldIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { (ObjectIdentifier($1.object), $0) })
        var deletions: [FetchedResultsChange] = []
        var kept: [(old: Int, new: Int)] = []
        for (position, entry) in old.enumerated() {
            if let target = newIndex[ObjectIdentifier(entry.object)] {
                kept.append((position, target))
            } else {
                deletions.append(
                    .init(kind: .delete, objectID: entry.object.objectID, oldIndexPath: entry.path, newIndexPath: nil))
            }
        }
        let stable = Set(longestIncreasingRun(kept.map(\.new)).map { kept[$0].new })
        var others: [FetchedResultsChange] = []
        for (position, entry) in new.enumerated() {
            let id = ObjectIdentifier(entry.object)
            guard let before = oldIndex[id] else {
                others.append(
                    .init(kind: .insert, objectID: entry.object.objectID, oldIndexPath: nil, newIndexPath: entry.path))
                continue
            }
            let oldPath = old[before].path
            if !stable.contains(position) || old[before].section != entry.section {
                others.append(
                    .init(kind: .move, objectID: entry.object.objectID, oldIndexPath: oldPath, newIndexPath: entry.path)
                )
            } else if changed.contains(id) {
                others.append(
                    .init(
                        kind: .update, objectID: entry.object.objectID, oldIndexPath: oldPath, newIndexPath: entry.path)
                )
            }
        }
        return deletions.reversed() + others
    }

    /// The indices of a longest strictly increasing subsequence of `values`.
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.append(index)
            index = previous[index]
        }
        return run.reversed()
    }

    /// A section's name for the section key path's value.
    static func sectionName(_ value: AttributeValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .integer16(let number): "\(number)"
        case .integer32(let number): "\(number)"
        case .integer64(let number): "\(number)"
        case .decimal(let number): "\(number)"
        case .double(let number): "\(number)"
        case .float(let number): "\(number)"
        case .boolean(let flag): "\(flag)"
        case .date(let date): date.formatted(.iso8601)
        case .binary(let data): data.base64EncodedString()
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        case .objectID(let id): id.uriString
        }
    }
}
