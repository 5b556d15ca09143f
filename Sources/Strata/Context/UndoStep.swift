import OrderedCollections

/// One recorded change to a context's objects, which an undo reverses and a redo replays.
enum UndoStep {
    /// An attribute or to-one relationship of `object` went from `old` to `new`.
    case value(ManagedObject, key: String, old: UndoValue, new: UndoValue)
    /// The members of the to-many relationship `key` of `object` changed: `removed` left and
    /// `inserted` took their place at `offset`.
    case members(ManagedObject, key: String, splice: MemberSplice)
    /// `object` was inserted into the context.
    case insertion(ManagedObject)
    /// `object` was deleted from the context.
    case deletion(ManagedObject)

    /// The object the step changed.
    var object: ManagedObject {
        switch self {
        case .value(let object, _, _, _), .members(let object, _, _), .insertion(let object), .deletion(let object):
            return object
        }
    }
}

/// A group of steps undone and redone together, with the name an interface shows for it.
struct UndoGroup {
    var steps: [UndoStep] = []
    var actionName = ""
}

/// An object referred to by an undo step. An object the context holds is kept as itself, since
/// its ID changes when it is first saved; any other by its ID, which does not change.
enum UndoReference {
    case object(ManagedObject)
    case id(ObjectID)

    init(_ id: ObjectID, in registered: [ObjectID: ManagedObject]) {
        self = registered[id].map(UndoReference.object) ?? .id(id)
    }

    /// The referred object's ID now.
    var objectID: ObjectID {
        switch self {
        case .object(let object): return object.objectID
        case .id(let id): return id
        }
    }
}

/// A value as an undo step keeps it: missing, a plain value, or a reference to an object.
enum UndoValue {
    case absent
    case value(AttributeValue)
    case reference(UndoReference)

    init(_ value: AttributeValue?, in registered: [ObjectID: ManagedObject]) {
        switch value {
        case nil: self = .absent
        case .objectID(let id)?: self = .reference(UndoReference(id, in: registered))
        case let value?: self = .value(value)
        }
    }

    /// The value to put back, with object references turned into their IDs now.
    var resolved: AttributeValue? {
        switch self {
        case .absent: return nil
        case .value(let value): return value
        case .reference(let reference): return .objectID(reference.objectID)
        }
    }
}

/// How the members of a to-many relationship changed, kept small: the stretch that differs
/// between the old and new members, found by trimming their common beginning and end.
struct MemberSplice {
    let offset: Int
    let removed: [UndoReference]
    let inserted: [UndoReference]

    init(from old: OrderedSet<ObjectID>, to new: OrderedSet<ObjectID>, in registered: [ObjectID: ManagedObject]) {
        let (old, new) = (old.elements, new.elements)
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        offset = prefix
        removed = old[prefix..<(old.count - suffix)].map { UndoReference($0, in: registered) }
        inserted = new[prefix..<(new.count - suffix)].map { UndoReference($0, in: registered) }
    }

    /// `members` with the change reversed (`undoing`) or made again; `nil` when `members` no
    /// longer hold what the change left there.
    func applied(to members: [ObjectID], undoing: Bool) -> [ObjectID]? {
        let (expected, replacement) = undoing ? (inserted, removed) : (removed, inserted)
        let end = offset + expected.count
        guard end <= members.count, members[offset..<end].elementsEqual(expected.map(\.objectID)) else { return nil }
        var result = members
        result.replaceSubrange(offset..<end, with: replacement.map(\.objectID))
        return result
    }
}
