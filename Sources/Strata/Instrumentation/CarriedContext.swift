/// What a task carries for a coordinator's observer (``OperationObserver/carriedContext()``),
/// taken where work leaves the task for a context's queue and put back in effect there.
struct CarriedContext: Sendable {
    private let observer: (any OperationObserver)?
    private let carried: (any Sendable)?

    /// What `observer` finds in the calling task; nothing without an observer. Callers pass the
    /// coordinator's ``PersistentStoreCoordinator/activeObserver``, so an observer that reports
    /// nothing is not asked.
    init(observer: (any OperationObserver)?) {
        self.observer = observer
        carried = observer?.carriedContext()
    }

    /// Runs `body` with what was carried in effect.
    func restored<T>(_ body: () -> T) -> T {
        guard let observer, let carried else { return body() }
        return observer.withCarriedContext(carried, body)
    }
}
