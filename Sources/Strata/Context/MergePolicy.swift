/// How a context's save settles a conflict: an object it changed or deleted whose store holds a
/// newer version than the one the context read (another context or process saved it since).
///
/// Say the store holds `{name: "Ada", city: "Oslo", age: 30}` at version 1, which both context
/// A and context B read. A sets `name = "Ann"` and `city = "Rome"` and saves (version 2). B then
/// sets `name = "Bea"` and `age = 31` and saves:
///
/// | policy | what B's save leaves in the store |
/// | --- | --- |
/// | ``error`` | nothing: the save fails with ``ContextError/Code/mergeConflict`` |
/// | ``mergeByPropertyStoreTrump`` | `{name: "Ann", city: "Rome", age: 31}` |
/// | ``mergeByPropertyObjectTrump`` | `{name: "Bea", city: "Rome", age: 31}` |
/// | ``overwrite`` | `{name: "Bea", city: "Oslo", age: 31}` |
/// | ``rollback`` | `{name: "Ann", city: "Rome", age: 30}`, and B's object shows it |
///
/// Whatever the policy, an object the store no longer has is deleted in the context too, and
/// its changes are dropped. A deletion that meets a newer version goes ahead under every policy
/// but ``rollback``, which keeps the object with the store's values.
///
/// ## Uniqueness constraints
///
/// When a save would leave objects holding the same values of a uniqueness constraint's keys
/// (a new object and a saved one, or two objects of the save), every policy but ``error``
/// merges them into one object, as Core Data's upsert does:
/// - With a saved object, that object's identity is kept: a new object takes its ID and
///   becomes a change of it (or, when the context already has the saved object, the new ones
///   are merged into that). Under ``mergeByPropertyObjectTrump`` the keys the new object set
///   win and the others keep the store's values; under ``overwrite`` all of its values win;
///   under ``mergeByPropertyStoreTrump`` and ``rollback`` the store's values stay.
/// - Between objects of the save, the saved one among them (else the first inserted) is kept;
///   under ``mergeByPropertyObjectTrump`` and ``overwrite`` it takes the last one's
///   attributes and to-one relationships.
/// - The other objects leave the context (as if deleted); to-many members of every merged
///   object join the kept one, and what referred to them refers to it.
///
/// Two saved objects are never merged (one would be deleted, and what refers to it in the
/// store lost): such a save fails with ``ContextError/Code/constraintConflict`` whatever the
/// policy.
public enum MergePolicy: Sendable, Hashable, CaseIterable {
    /// The save fails with ``ContextError/Code/mergeConflict``, listing each object, the
    /// version the context read, the store's version and the keys the context changed. The
    /// default, as in Core Data.
    case error
    /// Property by property: the context's change to a key wins unless the store's value of
    /// that key changed too, in which case the store's value wins; other keys take the store's
    /// values. To-many relationships count as keys.
    case mergeByPropertyStoreTrump
    /// Property by property: every key the context changed keeps the context's value; the other
    /// keys take the store's values.
    case mergeByPropertyObjectTrump
    /// The context's whole view of the object is written over the store's: every attribute and
    /// to-one relationship, and the to-many relationships it changed.
    case overwrite
    /// The context's changes to the conflicting object are dropped, and the object takes the
    /// store's values; a deletion of it is undone.
    case rollback
}
