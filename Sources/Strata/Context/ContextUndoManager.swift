import OrderedCollections

/// Records a context's changes in groups so that they can be undone and redone, in the manner
/// of Foundation's `UndoManager`.
///
/// Give a context one through ``ManagedObjectContext/undoManager``; a context without one
/// records nothing, which is the fastest. A container's ``PersistentContainer/viewContext`` has
/// one from the start; contexts created directly and background contexts do not.
///
/// Every insert, deletion (with what its delete rules did to other objects), attribute change
/// and relationship change the context's objects go through is recorded, whoever makes it on
/// the context's queue. With ``groupsByEvent`` (the default) the changes of one outermost
/// ``ManagedObjectContext/perform(_:)`` or ``ManagedObjectContext/performAndWait(_:)`` block
/// form one group, closed when the block ends. Changes made on the queue outside any block (a
/// main-queue context used directly on the main thread) join the open group until a block ends
/// or ``undo()`` closes it.
///
/// ```swift
/// try await context.perform {
///     context.undoManager = ContextUndoManager()
/// }
/// try await context.perform {
///     book.title = "Dune Messiah"
/// }
/// try await context.perform {
///     context.undoManager?.undo()   // the title is "Dune" again, a pending change
/// }
/// ```
///
/// Call it on its context's queue. Undoing and redoing change the context as if the reverse
/// edits were made: they become pending changes (an object back at its saved values is no
/// longer one) and are announced with objects-did-change when the block ends. A save keeps
/// the groups, so undoing after a save makes changes that the next save writes; a new change
/// forgets what could be redone; ``ManagedObjectContext/rollback()`` and
/// ``ManagedObjectContext/reset()`` forget everything, as in Core Data.
public final class ContextUndoManager {
    /// Whether each outermost perform block of the context opens a group that closes when the
    /// block ends (`true` by default). Without it, changes made outside an explicit group
    /// (``beginUndoGrouping()``) are each a group of their own.
    public var groupsByEvent = true
    /// How many groups are kept for undoing; the oldest are dropped beyond it. 0, the default,
    /// keeps every group.
    public var levelsOfUndo = 0 {
        didSet {
            trim(&undoStack)
            trim(&redoStack)
        }
    }
    /// Whether an ``undo()`` is under way.
    public private(set) var isUndoing = false
    /// Whether a ``redo()`` is under way.
    public private(set) var isRedoing = false

    /// The context whose changes the manager records.
    weak var context: ManagedObjectContext?
    private var undoStack: [UndoGroup] = []
    private var redoStack: [UndoGroup] = []
    /// The groups open now, outermost first; the changes of nested groups join their parent's
    /// when they close.
    private var openGroups: [UndoGroup] = []
    /// Whether the outermost open group is the one a perform block opened.
    private var eventGroupIsOpen = false

    /// Creates a manager with nothing to undo.
    public init() {}

    /// How many groups are open.
    public var groupingLevel: Int { openGroups.count }

    /// Whether ``undo()`` has a group to undo, counting the changes of the perform block under way.
    public var canUndo: Bool { !undoStack.isEmpty || closableEventGroup?.steps.isEmpty == false }

    /// Whether ``redo()`` has a group to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// The name of the group ``undo()`` would undo, or an empty string.
    public var undoActionName: String { closableEventGroup?.actionName ?? undoStack.last?.actionName ?? "" }

    /// The name of the group ``redo()`` would redo, or an empty string.
    public var redoActionName: String { redoStack.last?.actionName ?? "" }

    /// Names the innermost open group, or the latest closed one when none is open ("Rename
    /// Book"), for an interface's Undo and Redo menu items.
    public func setActionName(_ name: String) {
        if openGroups.isEmpty {
            guard !undoStack.isEmpty else { return }
            undoStack[undoStack.count - 1].actionName = name
        } else {
            openGroups[openGroups.count - 1].actionName = name
        }
    }

    /// Opens a group: every change until the matching ``endUndoGrouping()`` is undone together.
    /// Groups nest; a nested group is undone with the group around it. With ``groupsByEvent``,
    /// a group opened in a perform block nests in the block's group.
    public func beginUndoGrouping() {
        if groupsByEvent && openGroups.isEmpty {
            openGroups.append(UndoGroup())
            eventGroupIsOpen = true
        }
        openGroups.append(UndoGroup())
    }

    /// Closes the group ``beginUndoGrouping()`` opened last.
    ///
    /// - Precondition: a group is open.
    public func endUndoGrouping() {
        precondition(!openGroups.isEmpty, "endUndoGrouping() was called with no undo group open.")
        let group = openGroups.removeLast()
        guard let parent = openGroups.indices.last else {
            eventGroupIsOpen = false
            if !group.steps.isEmpty { push(group, onto: &undoStack) }
            return
        }
        openGroups[parent].steps += group.steps
        if openGroups[parent].actionName.isEmpty { openGroups[parent].actionName = group.actionName }
    }

    /// Reverses the latest group's changes, first closing the group of the perform block under
    /// way, and makes the group available to ``redo()``. Does nothing when there is nothing to
    /// undo.
    ///
    /// - Precondition: no group opened with ``beginUndoGrouping()`` is still open.
    public func undo() {
        replay(undoing: true, "undo()")
    }

    /// Makes the changes of the latest undone group again, and makes the group available to
    /// ``undo()``. Does nothing when there is nothing to redo.
    ///
    /// - Precondition: as ``undo()``.
    public func redo() {
        replay(undoing: false, "redo()")
    }

    /// Forgets every group, closed or open, so that nothing can be undone or redone.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        for index in openGroups.indices { openGroups[index] = UndoGroup() }
    }

    /// Closes the group the ending perform block opened.
    func closeEventGroup() {
        if eventGroupIsOpen && openGroups.count == 1 { endUndoGrouping() }
    }

    /// Adds `step` to the open group (opening the block's group when needed) and forgets what
    /// could be redone. Changes made while undoing or redoing are not recorded.
    func record(_ step: UndoStep) {
        guard !isUndoing && !isRedoing else { return }
        redoStack.removeAll()
        if openGroups.isEmpty {
            guard groupsByEvent else {
                push(UndoGroup(steps: [step]), onto: &undoStack)
                return
            }
            openGroups.append(UndoGroup())
            eventGroupIsOpen = true
        }
        openGroups[openGroups.count - 1].steps.append(step)
    }

    /// Records that the attribute or to-one relationship `key` of `object` went from `old` to `new`.
    func recordValue(of object: ManagedObject, key: String, from old: AttributeValue?, to new: AttributeValue) {
        let registered = object.managedObjectContext?.registered ?? [:]
        record(.value(object, key: key, old: UndoValue(old, in: registered), new: UndoValue(new, in: registered)))
    }

    /// Records that the members of the to-many relationship `key` of `object` went from `old` to `new`.
    func recordMembers(
        of object: ManagedObject, key: String, from old: OrderedSet<ObjectID>, to new: OrderedSet<ObjectID>
    ) {
        let registered = object.managedObjectContext?.registered ?? [:]
        record(.members(object, key: key, splice: MemberSplice(from: old, to: new, in: registered)))
    }

    /// The group of the perform block under way, when undo would close it.
    private var closableEventGroup: UndoGroup? {
        eventGroupIsOpen && openGroups.count == 1 ? openGroups[0] : nil
    }

    /// Closes the block's group, then reverses (`undoing`) or makes again the latest group of
    /// the matching stack and moves it to the other.
    private func replay(undoing: Bool, _ function: StaticString) {
        guard let context else { return }
        context.assertOnQueue(function)
        closeEventGroup()
        precondition(openGroups.isEmpty, "\(function) was called with an undo group still open; end it first.")
        guard let group = undoing ? undoStack.popLast() : redoStack.popLast() else { return }
        (isUndoing, isRedoing) = (undoing, !undoing)
        context.applyUndoGroup(group, undoing: undoing)
        (isUndoing, isRedoing) = (false, false)
        if undoing {
            push(group, onto: &redoStack)
        } else {
            push(group, onto: &undoStack)
        }
    }

    private func push(_ group: UndoGroup, onto stack: inout [UndoGroup]) {
        stack.append(group)
        trim(&stack)
    }

    private func trim(_ stack: inout [UndoGroup]) {
        guard levelsOfUndo > 0, stack.count > levelsOfUndo else { return }
        stack.removeFirst(stack.count - levelsOfUndo)
    }
}

@available(*, unavailable)
extension ContextUndoManager: Sendable {}
