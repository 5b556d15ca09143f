import Observation

/// Managed objects take part in Swift's Observation: a typed property (``Managed``, ``ToOne``,
/// ``ToMany``, ``OrderedToMany``) read inside `withObservationTracking` is tracked, and a change
/// of it fires the tracking.
///
/// A change made through the object (its typed properties, ``ManagedObject/setValue(_:forKey:)``
/// and the other setters, and the inverse relationships they update) or by an undo or redo fires
/// at once, for the property changed. A refresh, a rollback, a merge of another context's save,
/// a child context's save into its parent and a deletion fire every tracked property of the
/// objects they touch when the context processes its pending changes: when the perform block
/// ends, or at ``ManagedObjectContext/processPendingChanges()``.
extension ManagedObject: Observable {}

/// Tells an object's registrar that one typed property changes; made once per property and
/// context (``PropertyIdentity``) and shared by the objects.
struct ObservationAnnouncer {
    let willSet: (ManagedObject, ObservationRegistrar) -> Void
    let didSet: (ManagedObject, ObservationRegistrar) -> Void

    /// Announces changes of the property `keyPath` of objects of class `Object`.
    init<Object: ManagedObject, Value>(_ keyPath: KeyPath<Object, Value>) {
        willSet = { object, registrar in registrar.willSet(unsafeDowncast(object, to: Object.self), keyPath: keyPath) }
        didSet = { object, registrar in registrar.didSet(unsafeDowncast(object, to: Object.self), keyPath: keyPath) }
    }
}

/// The Observation state of one object, made when one of its typed properties is first read.
final class ObjectObservation {
    let registrar = ObservationRegistrar()
    /// How to announce each property read so far, by name.
    private var announcers: [String: ObservationAnnouncer] = [:]

    /// Records that `object` read the property `identity` names, through `keyPath`.
    func access<Object: ManagedObject, Value>(
        _ object: Object, _ identity: PropertyIdentity, keyPath: KeyPath<Object, Value>
    ) {
        if announcers[identity.name] == nil { announcers[identity.name] = identity.announcer }
        registrar.access(object, keyPath: keyPath)
    }

    /// Announces that `object`'s property `key` changes while `change` runs, if it was ever read.
    func announceChange(of object: ManagedObject, key: String, _ change: () -> Void) {
        guard let announcer = announcers[key] else { return change() }
        announcer.willSet(object, registrar)
        change()
        announcer.didSet(object, registrar)
    }

    /// Announces that every property `object` read may have changed.
    func announceChangeOfEveryProperty(of object: ManagedObject) {
        for announcer in announcers.values {
            announcer.willSet(object, registrar)
            announcer.didSet(object, registrar)
        }
    }
}

extension ManagedObject {
    /// Records for Observation that the typed property `identity` names was read through
    /// `keyPath`.
    func observeAccess<Object: ManagedObject, Value>(
        _ object: Object, _ identity: PropertyIdentity, keyPath: KeyPath<Object, Value>
    ) {
        if observation == nil { observation = ObjectObservation() }
        observation?.access(object, identity, keyPath: keyPath)
    }

    /// Runs `change` of the property `key`, announcing it to Observation when it is tracked.
    func announcingChange(ofKey key: String, _ change: () -> Void) {
        guard let observation else { return change() }
        observation.announceChange(of: self, key: key, change)
    }
}

extension ManagedObjectContext {
    /// Announces to Observation that every tracked property of the objects `changes` touched may
    /// have changed.
    func announceObservedChanges(_ changes: ObjectChanges) {
        for list in [changes.updated, changes.refreshed, changes.deleted] {
            for object in list { object.observation?.announceChangeOfEveryProperty(of: object) }
        }
    }
}
