import Foundation
import Hummingbird
import Logging
import Strata
import StrataPostgres
import StrataService
import StrataStores
import StrataTelemetry

/// Where the service keeps its items.
public enum InventoryStore: Sendable {
    /// An SQLite file.
    case sqlite(URL)
    /// A schema of a PostgreSQL database (`postgresql://user@host:port/database?schema=name`).
    case postgres(URL)

    var description: PersistentStoreDescription {
        switch self {
        case .sqlite(let url): PersistentStoreDescription(type: StoreType.sqlite.name, url: url)
        case .postgres(let url): PersistentStoreDescription(type: StoreType.postgres.name, url: url)
        }
    }
}

/// Builds the service: a container whose coordinator reports to swift-metrics and
/// swift-distributed-tracing, and an application that serves the routes and runs the
/// container as a service of its own, so that the stores load when the application starts and
/// close, once the server has stopped taking requests, when it shuts down.
public enum InventoryApplication {
    /// A container on `store`, watched by `MetricsAndTracing`.
    public static func makeContainer(store: InventoryStore, logger: Logger) throws -> PersistentContainer {
        let container = try PersistentContainer(
            name: "Inventory", model: InventoryModel.make(), storeTypes: StoreType.builtInFileTypes + [.postgres],
            logger: logger, observer: MetricsAndTracing())
        container.persistentStoreDescriptions = [store.description]
        return container
    }

    /// The application serving `container` on `configuration`'s address, with request metrics
    /// and a span per request whose context Strata's spans continue.
    public static func make(
        container: PersistentContainer, configuration: ApplicationConfiguration, logger: Logger
    ) -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: TracingMiddleware())
        router.add(middleware: MetricsMiddleware())
        InventoryRoutes(container: container).register(on: router)
        return Application(
            router: router, configuration: configuration,
            services: [PersistentContainerService(container: container, shutdownTimeout: .seconds(10), logger: logger)],
            logger: logger)
    }
}
