import CoreMetrics
import Dispatch
import Strata
import Tracing

/// An `OperationObserver` that reports a coordinator's work to swift-metrics and
/// swift-distributed-tracing: a span, a counter and a timer per fetch, count, save, batch
/// request and migration, counters of the objects they returned or wrote, and counters or
/// timers for faults fired, save conflicts and retries, remote changes merged and waits for a
/// connection.
///
/// Both are silent until the application bootstraps a backend (`MetricsSystem.bootstrap`,
/// `InstrumentationSystem.bootstrap`), and cost next to nothing while they are: with no tracer
/// and no metrics backend, an operation runs as it would unobserved. Bootstrap the metrics
/// backend before making the observer, which takes it when it is made, as swift-metrics'
/// own metrics take the backend there is when they are made.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory())
/// InstrumentationSystem.bootstrap(otelTracer)
/// let container = try PersistentContainer(name: "Inventory", model: model, observer: MetricsAndTracing())
/// ```
///
/// Spans start from the caller's `ServiceContext`, which a context's `perform` carries to its
/// queue; work inside a span (the fetch and save of a batch request) becomes its child. Every
/// dimension and attribute comes from a bounded set: operation kinds, entity names of the
/// model, store type names.
public struct MetricsAndTracing: OperationObserver {
    private let metrics: MetricsCache
    private let tracer: (any Tracer)?

    /// Creates an observer reporting to `metricsFactory` and `tracer`; when they are `nil`, to
    /// the metrics backend bootstrapped by now and to the tracer in effect for each operation
    /// (`InstrumentationSystem.tracer`: one bound with `withTracer`, or the bootstrapped one).
    public init(metricsFactory: (any MetricsFactory)? = nil, tracer: (any Tracer)? = nil) {
        metrics = MetricsCache(factory: metricsFactory)
        self.tracer = tracer
    }

    public func observe<T>(_ operation: ObservedOperation, _ body: (inout ObservedOutcome) throws -> T) throws -> T {
        let tracer = tracer ?? InstrumentationSystem.tracer
        let parent = ServiceContext.current ?? .topLevel
        let span = tracer.startSpan(MetricNames.spanName(operation.kind), context: parent, ofKind: .client)
        let start = DispatchTime.now().uptimeNanoseconds
        var outcome = ObservedOutcome()
        do {
            let result = try ServiceContext.withValue(span.context) { try body(&outcome) }
            finish(operation, outcome, span: span, startedAt: start, error: nil)
            return result
        } catch {
            finish(operation, outcome, span: span, startedAt: start, error: error)
            throw error
        }
    }

    private func finish(
        _ operation: ObservedOperation, _ outcome: ObservedOutcome, span: any Span, startedAt start: UInt64,
        error: (any Error)?
    ) {
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        metrics.record(operation, outcome, nanoseconds: Int64(clamping: elapsed), failed: error != nil)
        if span.isRecording {
            span.updateAttributes { attributes in
                attributes["strata.store_types"] = operation.storeTypes
                if let entity = operation.entity { attributes["strata.entity"] = entity }
                switch operation.kind {
                case .fetch, .count: attributes["strata.objects"] = outcome.objects
                case .save, .batchInsert, .batchUpdate, .batchDelete, .migration:
                    attributes["strata.inserted"] = outcome.inserted
                    attributes["strata.updated"] = outcome.updated
                    attributes["strata.deleted"] = outcome.deleted
                }
            }
            if let error {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error, message: "\(error)"))
            }
        }
        span.end()
    }

    /// Whether a tracer or a metrics backend is there: the tracer given, a tracer bound with
    /// `withTracer` or bootstrapped, or a metrics factory other than swift-metrics' no-op one.
    /// Without either, the coordinator runs its work as it would unobserved.
    public var isObserving: Bool {
        tracer != nil || !(InstrumentationSystem.instrument is NoOpInstrument) || metrics.isReporting
    }

    public func record(_ event: ObservedEvent) { metrics.record(event) }

    public func carriedContext() -> (any Sendable)? {
        CarriedTrace(context: ServiceContext.current, tracer: tracer == nil ? InstrumentationSystem.tracer : nil)
    }

    public func withCarriedContext<T>(_ carried: any Sendable, _ body: () -> T) -> T {
        guard let carried = carried as? CarriedTrace else { return body() }
        func inContext() -> T { ServiceContext.withValue(carried.context) { body() } }
        guard let carriedTracer = carried.tracer else { return inContext() }
        return withTracer(carriedTracer) { inContext() }
    }
}

/// The caller's service context and, when the observer has no tracer of its own, the tracer in
/// effect for the caller (one bound by `withTracer`, or the bootstrapped one).
private struct CarriedTrace: Sendable {
    let context: ServiceContext?
    let tracer: (any Tracer)?
}
