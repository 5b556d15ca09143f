import Foundation

/// Where an object is in an observed fetch's results: its section and its place in it.
public struct ResultIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The section's index.
    public var section: Int
    /// The object's index within its section.
    public var item: Int

    /// Creates an index path.
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: ResultIndexPath, rhs: ResultIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `section.item`.
    public var description: String { "\(section).\(item)" }
}

/// One section of an observed fetch's results: the objects sharing a value of the section key
/// path, in the fetch's order.
public struct FetchedSection: Sendable, Hashable {
    /// The section key path's value, as text (empty for `nil`; the whole results form one
    /// unnamed section when there is no section key path).
    public var name: String
    /// The section's objects, in order.
    public var objectIDs: [ObjectID]

    /// Creates a section.
    public init(name: String, objectIDs: [ObjectID]) {
        self.name = name
        self.objectIDs = objectIDs
    }
}

/// How one object's place in an observed fetch's results changed.
public struct FetchedResultsChange: Sendable, Hashable {
    /// What happened to the object.
    public enum Kind: Sendable, Hashable {
        /// It now matches the fetch: at ``FetchedResultsChange/newIndexPath``.
        case insert
        /// It no longer matches the fetch (or was deleted): it was at
        /// ``FetchedResultsChange/oldIndexPath``.
        case delete
        /// It changed but kept its place relative to the others.
        case update
        /// It moved, within its section or to another one (it may also have changed).
        case move
    }

    /// What happened.
    public var kind: Kind
    /// The object, by its current ID.
    public var objectID: ObjectID
    /// Where it was; `nil` for an insert.
    public var oldIndexPath: ResultIndexPath?
    /// Where it is; `nil` for a delete.
    public var newIndexPath: ResultIndexPath?

    /// Creates a change.
    public init(kind: Kind, objectID: ObjectID, oldIndexPath: ResultIndexPath?, newIndexPath: ResultIndexPath?) {
        self.kind = kind
        self.objectID = objectID
        self.oldIndexPath = oldIndexPath
        self.newIndexPath = newIndexPath
    }
}

/// An observed fetch's results after a change, with the changes that led there: what a live
/// view applies to stay in step with a context.
public struct FetchedResultsUpdate: Sendable, Hashable {
    /// The results, section by section.
    public var sections: [FetchedSection]
    /// Deletions (old index paths, descending), then insertions, moves and updates (new index
    /// paths, ascending); empty for the first update, which holds the initial results.
    public var changes: [FetchedResultsChange]

    /// Every object, in order across sections.
    public var objectIDs: [ObjectID] { sections.flatMap(\.objectIDs) }
}
