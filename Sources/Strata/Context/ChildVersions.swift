/// The version of each object a context handed to its child contexts, and what it handed out,
/// so that a child's save can tell whether the parent changed an object since the child read
/// it.
///
/// An object's version starts at 1 when a child first reads it. Whenever the context hands
/// it out again, or a child saves it, the context compares the object's current persistent
/// values, and the members of each to-many relationship a child read, with the recorded ones:
/// when they differ, the version goes up by one. A child's save of an object sets the version
/// to one more than the version the child read, as a store does. A change the parent made and
/// undid before any child looked again counts as no change.
struct ChildVersions {
    struct Entry {
        var version: Int64
        var values: PropertyValues
        var members: [String: [ObjectID]]
    }

    var entries: [ObjectID: Entry] = [:]
    /// The permanent IDs of objects that had temporary IDs when children read them: a child
    /// that saves before it learns them still names the objects by their temporary IDs.
    var forwarded: [ObjectID: ObjectID] = [:]

    /// Renames the entries and the IDs they hold as `mapping` says, and, when `forwarding`,
    /// remembers the new IDs for children that still use the old ones.
    mutating func remap(_ mapping: [ObjectID: ObjectID], forwarding: Bool) {
        if forwarding { forwarded.merge(mapping) { _, new in new } }
        guard !mapping.isEmpty, !entries.isEmpty else { return }
        var remapped: [ObjectID: Entry] = [:]
        for (id, entry) in entries {
            remapped[mapping[id] ?? id] = Entry(
                version: entry.version, values: entry.values.remapped(mapping),
                members: entry.members.mapValues { $0.map { mapping[$0] ?? $0 } })
        }
        entries = remapped
    }
}

extension StoreChangeSet {
    /// The change set with the object IDs `mapping` names replaced.
    func remapped(_ mapping: [ObjectID: ObjectID]) -> StoreChangeSet {
        guard !mapping.isEmpty else { return self }
        func remap(_ change: ObjectChange) -> ObjectChange {
            ObjectChange(
                objectID: mapping[change.objectID] ?? change.objectID, values: change.values.remapped(mapping),
                toManyRelationships: change.toManyRelationships.mapValues { $0.map { mapping[$0] ?? $0 } },
                expectedVersion: change.expectedVersion)
        }
        return StoreChangeSet(
            inserted: inserted.map(remap), updated: updated.map(remap),
            deleted: deleted.map {
                Deletion(objectID: mapping[$0.objectID] ?? $0.objectID, expectedVersion: $0.expectedVersion)
            })
    }
}

extension AttributeValue {
    /// The value with the object ID `mapping` names replaced.
    func remapped(_ mapping: [ObjectID: ObjectID]) -> AttributeValue {
        objectIDValue.flatMap { mapping[$0] }.map { .objectID($0) } ?? self
    }
}

extension [AttributeValue] {
    /// The values with the object IDs `mapping` names replaced.
    func remapped(_ mapping: [ObjectID: ObjectID]) -> [AttributeValue] {
        map { $0.remapped(mapping) }
    }
}

extension PropertyValues {
    /// The values with the object IDs `mapping` names replaced.
    func remapped(_ mapping: [ObjectID: ObjectID]) -> PropertyValues {
        mapValues { $0.remapped(mapping) }
    }
}

extension ManagedObjectContext {
    /// The version of `object` as this context's children see it (see ``ChildVersions``).
    func childVersion(of object: ManagedObject) throws -> Int64 {
        let values = object.persistentValues
        guard var entry = childVersions.entries[object.objectID] else {
            childVersions.entries[object.objectID] = .init(version: 1, values: values, members: [:])
            return 1
        }
        var changed = entry.values != values
        for (key, handedOut) in entry.members {
            guard let relationship = object.entity.relationshipsByName[key] else { continue }
            let current = try members(of: object, relationship)
            if current != handedOut {
                changed = true
                entry.members[key] = current
            }
        }
        if changed {
            entry.version += 1
            entry.values = values
        }
        childVersions.entries[object.objectID] = entry
        return entry.version
    }

    /// Records that a child saved `object` at `version`, with its members of `keys`.
    func recordChildSave(of object: ManagedObject, version: Int64, keys: some Sequence<String>) {
        var members = childVersions.entries[object.objectID]?.members ?? [:]
        for key in keys { members[key] = [] }
        for key in members.keys { members[key] = object.currentMembers[key]?.elements ?? [] }
        childVersions.entries[object.objectID] = .init(
            version: version, values: object.persistentValues, members: members)
    }
}
