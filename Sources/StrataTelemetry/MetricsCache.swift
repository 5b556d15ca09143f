import CoreMetrics
import Strata

/// The metrics ``MetricsAndTracing`` reports, each made once, when first needed, and kept by
/// what tells it apart: making one asks the factory, which takes a lock and may allocate.
final class MetricsCache: Sendable {
    /// The factory metrics are made with: the one given, else the one bootstrapped when the
    /// cache was made.
    private let factory: any MetricsFactory
    /// Whether metrics go anywhere: not when the factory is swift-metrics' no-op one.
    let isReporting: Bool
    private let operations = Locked<[ObservedOperation: OperationMetrics]>([:])
    private let faults = Locked<[FaultKey: Counter]>([:])
    private let storeTypeCounters = Locked<[StoreTypeKey: Counter]>([:])
    private let connectionWaits = Locked<[String: Timer]>([:])

    /// A cache making its metrics with `factory`; with the one bootstrapped now when `nil`.
    init(factory: (any MetricsFactory)?) {
        let resolved = factory ?? MetricsSystem.factory
        self.factory = resolved
        isReporting = !(resolved is NOOPMetricsHandler)
    }

    /// Counts `operation` (and its failure), times it and counts the objects it returned or wrote.
    func record(_ operation: ObservedOperation, _ outcome: ObservedOutcome, nanoseconds: Int64, failed: Bool) {
        guard isReporting else { return }
        let metrics = Self.cached(operation, in: operations) { OperationMetrics(operation, in: self) }
        metrics.count.increment()
        metrics.duration.recordNanoseconds(nanoseconds)
        if failed { metrics.errors.increment() }
        if outcome.objects > 0 { metrics.fetched.increment(by: outcome.objects) }
        if outcome.inserted > 0 { metrics.inserted.increment(by: outcome.inserted) }
        if outcome.updated > 0 { metrics.updated.increment(by: outcome.updated) }
        if outcome.deleted > 0 { metrics.deleted.increment(by: outcome.deleted) }
    }

    /// Counts or times `event`.
    func record(_ event: ObservedEvent) {
        guard isReporting else { return }
        switch event {
        case .faultFired(let entity, let storeType):
            Self.cached(FaultKey(entity: entity, storeType: storeType), in: faults) {
                makeCounter(MetricNames.faultsFired, [("store_type", storeType), ("entity", entity)])
            }.increment()
        case .saveConflicts(let storeTypes, let count, let retried):
            counter(MetricNames.saveConflicts, storeType: storeTypes).increment(by: count)
            if retried { counter(MetricNames.saveRetries, storeType: storeTypes).increment() }
        case .remoteChangesMerged(let storeType, let transactions):
            counter(MetricNames.remoteTransactionsMerged, storeType: storeType).increment(by: transactions)
        case .connectionWait(let storeType, let seconds):
            Self.cached(storeType, in: connectionWaits) {
                makeTimer(MetricNames.connectionWait, [("store_type", storeType)])
            }.recordNanoseconds(Int64(seconds * 1e9))
        }
    }

    /// The counter `label` of `storeType`.
    private func counter(_ label: String, storeType: String) -> Counter {
        Self.cached(StoreTypeKey(label: label, storeType: storeType), in: storeTypeCounters) {
            makeCounter(label, [("store_type", storeType)])
        }
    }

    /// The metric `cache` keeps for `key`, made by `make` and kept when it has none.
    private static func cached<Key: Hashable & Sendable, Metric: Sendable>(
        _ key: Key, in cache: Locked<[Key: Metric]>, _ make: () -> sending Metric
    ) -> Metric {
        cache.withLock { metrics in
            if let metric = metrics[key] { return metric }
            let metric = make()
            metrics[key] = metric
            return metric
        }
    }

    /// A new counter from the factory.
    fileprivate func makeCounter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        Counter(label: label, dimensions: dimensions, factory: factory)
    }

    /// A new timer from the factory.
    fileprivate func makeTimer(_ label: String, _ dimensions: [(String, String)]) -> Timer {
        Timer(label: label, dimensions: dimensions, factory: factory)
    }
}

/// The metrics of one kind of operation on one entity in one set of store types.
private struct OperationMetrics: Sendable {
    let count: Counter
    let errors: Counter
    let duration: Timer
    let fetched: Counter
    let inserted: Counter
    let updated: Counter
    let deleted: Counter

    init(_ operation: ObservedOperation, in cache: MetricsCache) {
        var dimensions = [("operation", operation.kind.rawValue), ("store_type", operation.storeTypes)]
        if let entity = operation.entity { dimensions.append(("entity", entity)) }
        count = cache.makeCounter(MetricNames.operations, dimensions)
        errors = cache.makeCounter(MetricNames.operationErrors, dimensions)
        duration = cache.makeTimer(MetricNames.operationDuration, dimensions)
        fetched = cache.makeCounter(MetricNames.fetchedObjects, dimensions)
        inserted = cache.makeCounter(MetricNames.writtenObjects, dimensions + [("change", "inserted")])
        updated = cache.makeCounter(MetricNames.writtenObjects, dimensions + [("change", "updated")])
        deleted = cache.makeCounter(MetricNames.writtenObjects, dimensions + [("change", "deleted")])
    }
}

/// A fault counter's entity and store type.
private struct FaultKey: Hashable {
    let entity: String
    let storeType: String
}

/// A counter's label and store type.
private struct StoreTypeKey: Hashable {
    let label: String
    let storeType: String
}
