import CoreMetrics
import Foundation
import InMemoryTracing
import MetricsTestKit
import Strata
import StrataStores
import StrataTelemetry
import StrataTestSupport
import Testing
import Tracing

/// `MetricsAndTracing` reports every operation and event of a coordinator to a test metrics
/// backend and an in-memory tracer: counted, timed and traced, with bounded dimensions, errors
/// recorded, batch requests holding their fetch and save, and the caller's trace carried onto a
/// context's queue.
@Suite struct MetricsAndTracingTests {
    static let model = ManagedObjectModel {
        EntityDescription("Item") {
            AttributeDescription("name", .string)
            AttributeDescription("rank", .integer64)
        }
    }

    let folder: TemporaryDirectory
    let metrics = TestMetrics()
    let tracer = InMemoryTracer()

    init() throws { folder = try TemporaryDirectory() }

    /// A coordinator watched by a `MetricsAndTracing` reporting to the test backends, with a
    /// store of `type` (a file in the test's folder, or in memory).
    func coordinator(
        _ type: StoreType = .sqlite, options: StoreOptions = StoreOptions(), tracer: (any Tracer)? = nil
    ) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(
            model: Self.model, storeTypes: StoreType.builtInFileTypes,
            observer: MetricsAndTracing(metricsFactory: metrics, tracer: tracer ?? self.tracer))
        try coordinator.addStore(
            type: type.name, at: type == .inMemory ? nil : folder.file("items.\(type.name)"), options: options)
        return coordinator
    }

    /// Saves items ranked 1 to `count` in a new context of `coordinator`.
    func saveItems(_ count: Int, in coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            for rank in 1...count {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(.string("item \(rank)"), forKey: "name")
                try item.setValue(.integer64(Int64(rank)), forKey: "rank")
            }
            try context.save()
        }
    }

    func counted(_ label: String, _ dimensions: [(String, String)]) -> Int64 {
        metrics.counterTotal(label: label, dimensions: dimensions)
    }

    @Test func fetchesCountsAndSavesAreCountedTimedAndTraced() throws {
        let coordinator = try coordinator()
        try saveItems(3, in: coordinator)
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest<ManagedObject>(entityName: "Item")
        request.predicate = try FetchPredicate(format: "rank >= 2")
        let (fetched, count, rows) = try context.performAndWait {
            (
                try context.fetch(request).count, try context.count(for: request),
                try context.fetchDictionaries(FetchRequest<ManagedObject>(entityName: "Item")).count
            )
        }
        #expect((fetched, count, rows) == (2, 2, 3))

        let sqlite = ("store_type", "SQLite")
        let item = ("entity", "Item")
        #expect(counted(MetricNames.operations, [("operation", "save"), sqlite]) == 1)
        #expect(counted(MetricNames.writtenObjects, [("operation", "save"), sqlite, ("change", "inserted")]) == 3)
        #expect(counted(MetricNames.writtenObjects, [("operation", "save"), ("change", "updated")]) == 0)
        #expect(counted(MetricNames.operations, [("operation", "fetch"), sqlite, item]) == 2)
        #expect(counted(MetricNames.fetchedObjects, [("operation", "fetch"), sqlite, item]) == 5)
        #expect(counted(MetricNames.operations, [("operation", "count"), sqlite, item]) == 1)
        #expect(counted(MetricNames.fetchedObjects, [("operation", "count"), sqlite, item]) == 2)
        #expect(counted(MetricNames.operationErrors, []) == 0)
        let fetchTimes = try metrics.expectTimer(
            MetricNames.operationDuration, [("operation", "fetch"), sqlite, item])
        #expect(fetchTimes.values.count == 2)
        #expect(fetchTimes.values.allSatisfy { $0 > 0 })

        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["strata.save", "strata.fetch", "strata.count", "strata.fetch"])
        #expect(spans.allSatisfy { $0.attributes["strata.store_types"]?.toSpanAttribute() == "SQLite" })
        #expect(spans[0].attributes["strata.inserted"]?.toSpanAttribute() == 3)
        #expect(spans[1].attributes["strata.entity"]?.toSpanAttribute() == "Item")
        #expect(spans[1].attributes["strata.objects"]?.toSpanAttribute() == 2)
        #expect(spans.allSatisfy { $0.errors.isEmpty && $0.parentSpanID == nil })
    }

    @Test func aFailingOperationRecordsItsErrorAndAnEntityTheModelLacksStaysOutOfTheDimensions() throws {
        let coordinator = try coordinator()
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(throws: ContextError.self) {
            try context.performAndWait {
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Secret-\(UUID())"))
            }
        }
        let unknown = [("operation", "fetch"), ("entity", ObservedOperation.unknownEntity), ("store_type", "none")]
        #expect(counted(MetricNames.operations, unknown) == 1)
        #expect(counted(MetricNames.operationErrors, unknown) == 1)
        #expect(metrics.counters.allSatisfy { counter in !counter.dimensions.contains { $0.1.hasPrefix("Secret") } })
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.errors.count == 1)
        #expect(span.status?.code == .error)
    }

    @Test func faultsConflictsAndRetriesAreCounted() throws {
        let coordinator = try coordinator()
        try saveItems(1, in: coordinator)
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        let first = ManagedObjectContext(coordinator: coordinator)
        let second = ManagedObjectContext(coordinator: coordinator)
        first.mergePolicy = .mergeByPropertyObjectTrump
        let mine = try first.performAndWait { try first.fetch(request)[0] }
        #expect(try first.performAndWait { try mine.value(forKey: "name") } == .string("item 1"))
        #expect(counted(MetricNames.faultsFired, [("store_type", "SQLite"), ("entity", "Item")]) == 1)

        try second.performAndWait {
            try second.fetch(request)[0].setValue(.integer64(20), forKey: "rank")
            try second.save()
        }
        try first.performAndWait {
            try mine.setValue(.string("mine"), forKey: "name")
            try first.save()
        }
        #expect(counted(MetricNames.saveConflicts, [("store_type", "SQLite")]) == 1)
        #expect(counted(MetricNames.saveRetries, [("store_type", "SQLite")]) == 1)
        #expect(counted(MetricNames.writtenObjects, [("operation", "save"), ("change", "updated")]) == 2)
    }

    /// The in-memory store leaves batch requests to the core, which fetches and saves in a
    /// context of its own: both are spans inside the batch request's.
    @Test func aBatchRequestsSpanHoldsTheFetchAndSaveItMade() throws {
        let coordinator = try coordinator(.inMemory)
        try saveItems(3, in: coordinator)
        tracer.clearFinishedSpans()
        var request = BatchDeleteRequest(entityName: "Item")
        request.resultType = .count
        #expect(try coordinator.execute(request).count == 3)

        let memory = ("store_type", "InMemory")
        #expect(counted(MetricNames.operations, [("operation", "batch-delete"), memory, ("entity", "Item")]) == 1)
        #expect(counted(MetricNames.writtenObjects, [("operation", "batch-delete"), ("change", "deleted")]) == 3)
        let spans = tracer.finishedSpans
        let batch = try #require(spans.first { $0.operationName == "strata.batch-delete" })
        let inner = spans.filter { $0.operationName != "strata.batch-delete" }
        #expect(Set(inner.map(\.operationName)) == ["strata.fetch", "strata.save"])
        #expect(inner.allSatisfy { $0.parentSpanID == batch.spanID && $0.traceID == batch.traceID })
    }

    /// The observer reads the tracer in effect (no tracer of its own): `perform` carries the
    /// caller's tracer and service context to the context's queue.
    @Test func performCarriesTheCallersTraceToTheContextsQueue() async throws {
        let coordinator = try PersistentStoreCoordinator(
            model: Self.model, observer: MetricsAndTracing(metricsFactory: metrics))
        try await coordinator.addStore(type: StoreType.inMemory.name)
        let context = ManagedObjectContext(coordinator: coordinator)
        let tracer = InMemoryTracer()
        try await withTracer(tracer) { () async throws -> Void in
            try await withSpan("request") { _ in
                _ = try await context.perform {
                    try context.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
                }
            }
        }
        let request = try #require(tracer.finishedSpans.first { $0.operationName == "request" })
        let count = try #require(tracer.finishedSpans.first { $0.operationName == "strata.count" })
        #expect(count.parentSpanID == request.spanID)
        #expect(count.traceID == request.traceID)
    }

    @Test func migrationsAndRemoteChangesAreCounted() throws {
        let watching = StoreOptions(tracksPersistentHistory: true, postsRemoteChangeNotifications: true)
        let watcher = try coordinator(options: watching)
        let writer = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        try writer.addStore(
            type: StoreType.sqlite.name, at: folder.file("items.SQLite"),
            options: StoreOptions(tracksPersistentHistory: true))
        try saveItems(2, in: writer)
        try watcher.checkForRemoteChanges()
        #expect(counted(MetricNames.remoteTransactionsMerged, [("store_type", "SQLite")]) == 1)

        let store = try #require(watcher.stores.first)
        try watcher.migratePersistentStore(store, to: nil, type: StoreType.inMemory.name)
        #expect(counted(MetricNames.operations, [("operation", "migration"), ("store_type", "InMemory+SQLite")]) == 1)
        #expect(tracer.finishedSpans.contains { $0.operationName == "strata.migration" })
    }

    /// With no tracer and swift-metrics' no-op backend (nothing is bootstrapped in this process),
    /// the observer says it is not observing; a tracer or a metrics backend makes it observe.
    @Test func itObservesOnlyWithATracerOrAMetricsBackend() {
        #expect(!MetricsAndTracing(metricsFactory: NOOPMetricsHandler.instance).isObserving)
        #expect(MetricsAndTracing(metricsFactory: metrics).isObserving)
        #expect(MetricsAndTracing(metricsFactory: NOOPMetricsHandler.instance, tracer: tracer).isObserving)
        #expect(withTracer(tracer) { MetricsAndTracing(metricsFactory: NOOPMetricsHandler.instance).isObserving })
    }

    @Test func aWaitForAConnectionIsTimed() throws {
        let observer = MetricsAndTracing(metricsFactory: metrics, tracer: tracer)
        observer.record(.connectionWait(storeType: "PostgreSQL", seconds: 0.25))
        let waits = try metrics.expectTimer(MetricNames.connectionWait, [("store_type", "PostgreSQL")])
        #expect(waits.values == [250_000_000])
    }
}
