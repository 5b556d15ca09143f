/// Watches the work of a coordinator, its contexts and its stores, for metrics and tracing:
/// each fetch, count, save, batch request and migration as an operation with a start and an
/// end, and faults fired, save conflicts, remote changes merged and waits for a connection as
/// events.
///
/// A coordinator calls its observer (``PersistentStoreCoordinator/observer``) on the thread
/// doing the work; without one, it calls nothing. The `StrataTelemetry` product has an observer
/// that reports to swift-metrics and swift-distributed-tracing (`MetricsAndTracing`):
///
/// ```swift
/// let coordinator = try PersistentStoreCoordinator(
///     model: model, storeTypes: [.sqlite], observer: MetricsAndTracing())
/// ```
///
/// An observer must be cheap: it runs inside every operation it watches. What it learns is data
/// about the work, never a way to change it: ``observe(_:_:)`` returns what its body returns and
/// throws only what its body throws.
public protocol OperationObserver: Sendable {
    /// Whether the observer reports anything now. When it does not, the coordinator neither
    /// works out operations and events nor calls the other methods: the work runs as it would
    /// unobserved. Asked before every operation and event, so it must be cheap; `true` unless
    /// an observer says otherwise.
    var isObserving: Bool { get }

    /// Runs `body`, the whole of `operation`; `body` fills in the outcome it is given (objects
    /// fetched, saved, changed) as it goes. Returns what `body` returns and throws what it
    /// throws.
    func observe<T>(_ operation: ObservedOperation, _ body: (inout ObservedOutcome) throws -> T) throws -> T

    /// Notes `event`, which took no time of its own worth a span (or whose time it carries).
    func record(_ event: ObservedEvent)

    /// What the calling task carries that work done for it elsewhere should see (a trace's
    /// context, say), taken when a context's `perform` moves the work to the context's queue;
    /// `nil` when there is nothing to carry.
    func carriedContext() -> (any Sendable)?

    /// Runs `body` with `carried`, which ``carriedContext()`` returned, in effect again.
    func withCarriedContext<T>(_ carried: any Sendable, _ body: () -> T) -> T
}

extension OperationObserver {
    public var isObserving: Bool { true }
}
