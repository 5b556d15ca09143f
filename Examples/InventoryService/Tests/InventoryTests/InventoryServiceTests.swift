import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import Inventory
import Logging
import Metrics
import MetricsTestKit
import StrataPostgresTesting
import Testing
import Tracing

/// The metrics and tracing backends of the test process, bootstrapped once: swift-metrics and
/// swift-distributed-tracing allow one bootstrap per process.
enum TestBackends {
    static let metrics = TestMetrics()
    static let tracer = InMemoryTracer()
    static let bootstrapped: Void = {
        MetricsSystem.bootstrap(metrics)
        InstrumentationSystem.bootstrap(tracer)
    }()
}

/// The service end to end, over real HTTP on loopback, on SQLite and on the PostgreSQL test
/// server: items created, queried, changed and deleted; bad requests refused with a 4xx naming
/// the problem and writing nothing; the stores closed when the application stops; Strata's
/// metrics and spans reported, its spans inside the requests' spans.
@Suite(.serialized) struct InventoryServiceTests {
    @Test(arguments: ["SQLite", "PostgreSQL"])
    func itemsLiveThroughHTTPAndBadRequestsWriteNothing(_ storeType: String) async throws {
        _ = TestBackends.bootstrapped
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inventory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store: InventoryStore =
            storeType == "SQLite"
            ? .sqlite(folder.appendingPathComponent("Inventory.sqlite"))
            : .postgres(PostgresTestServer.storeURL(schema: PostgresTestServer.uniqueSchema("inventory")))
        let logger = Logger(label: "inventory-test")
        let container = try InventoryApplication.makeContainer(store: store, logger: logger)
        let application = InventoryApplication.make(
            container: container, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            logger: logger)

        try await application.test(.live) { client in
            try await Self.waitUntilReady(client)
            let anvil = try await client.send(
                .post, "/items", #"{"sku": "A-1", "name": "Anvil", "quantity": 3, "price": 19.5}"#)
            #expect(anvil.status == .created)
            let created = try anvil.item()
            #expect(created.sku == "A-1" && created.quantity == 3 && created.price == 19.5)
            #expect(created.id.hasPrefix("x-strata://"))
            #expect(
                try await client.send(.post, "/items", #"{"sku": "B-2", "name": "Bellows", "quantity": 10}"#).status
                    == .created)

            #expect(try await client.send(.get, "/items?where=quantity%20%3E%205").items().map(\.sku) == ["B-2"])
            #expect(try await client.send(.get, "/items?sort=-quantity").items().map(\.sku) == ["B-2", "A-1"])
            #expect(try await client.send(.get, "/items?sort=name&limit=1").items().map(\.sku) == ["A-1"])
            #expect(try await client.send(.get, "/items/A-1").item().name == "Anvil")
            #expect(try await client.send(.patch, "/items/A-1", #"{"quantity": 7}"#).item().quantity == 7)
            #expect(try await client.send(.delete, "/items/B-2").status == .noContent)
            #expect(try await client.send(.get, "/items/B-2").status == .notFound)

            let refused: [(HTTPRequest.Method, String, String?, HTTPResponse.Status, String)] = [
                (.post, "/items", #"{"sku": "C-3", "name": "#, .badRequest, "not a JSON object"),
                (.post, "/items", #"["C-3"]"#, .badRequest, "not a JSON object"),
                (.post, "/items", #"{"sku": "C-3", "name": "Chisel", "colour": "red"}"#, .badRequest, "'colour'"),
                (.patch, "/items/A-1", #"{"quantity": "many"}"#, .badRequest, "'quantity'"),
                (.get, "/items?where=quantity%20%3E%3E%202", nil, .badRequest, "does not parse"),
                (.get, "/items?where=weight%20%3E%202", nil, .badRequest, "'weight'"),
                (.get, "/items?sort=-colour", nil, .badRequest, "'colour'"),
                (.get, "/items?limit=none", nil, .badRequest, "'none'"),
                (.post, "/items", #"{"sku": "A-1", "name": "Another anvil"}"#, .conflict, "sku"),
                (
                    .post, "/items", #"{"sku": "D-4", "name": "Drill", "quantity": -1}"#, .unprocessableContent,
                    "quantity"
                ),
                (.patch, "/items/Z-9", #"{"quantity": 1}"#, .notFound, "'Z-9'"),
            ]
            for (method, uri, body, status, named) in refused {
                let response = try await client.send(method, uri, body)
                #expect(response.status == status, "\(method) \(uri) \(body ?? "")")
                #expect(response.text.contains(named), "\(method) \(uri): \(response.text)")
            }
            let left = try await client.send(.get, "/items").items()
            #expect(left.map(\.sku) == ["A-1"] && left.first?.quantity == 7, "A refused request wrote something.")
        }
        #expect(container.coordinator.stores.isEmpty, "Stopping the application closes the store.")

        let save = [("operation", "save"), ("store_type", storeType)]
        #expect(TestBackends.metrics.counterTotal(label: "strata_operations_total", dimensions: save) == 6)
        #expect(TestBackends.metrics.counterTotal(label: "strata_operation_errors_total", dimensions: save) == 2)
        let spans = TestBackends.tracer.finishedSpans
        let saves = spans.filter {
            $0.operationName == "strata.save"
                && $0.attributes["strata.store_types"]?.toSpanAttribute() == "\(storeType)"
        }
        #expect(saves.count == 6)
        #expect(
            saves.allSatisfy { save in
                spans.contains { $0.spanID == save.parentSpanID && $0.operationName.hasPrefix("/items") }
            }, "Each save's span is inside its request's span.")
    }

    /// Asks `/health` until the stores are loaded (the container's service loads them as the
    /// server starts).
    static func waitUntilReady(_ client: some TestClientProtocol) async throws {
        for _ in 0..<200 {
            if try await client.send(.get, "/health").status == .ok { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("The stores did not load in 10 seconds.")
    }
}

extension TestClientProtocol {
    /// Sends `body` (JSON) to `uri` with `method`.
    func send(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if body != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    func item() throws -> ItemRecord { try JSONDecoder().decode(ItemRecord.self, from: Data(text.utf8)) }

    func items() throws -> [ItemRecord] { try JSONDecoder().decode([ItemRecord].self, from: Data(text.utf8)) }
}
