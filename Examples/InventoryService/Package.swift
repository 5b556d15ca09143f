// swift-tools-version: 6.1
import PackageDescription

// An HTTP service over a Strata container, as a server developer would write one: Hummingbird 2
// for HTTP, the container run as a swift-service-lifecycle service, metrics and tracing through
// StrataTelemetry. It depends on Strata by path, as an outside package would by URL.
let package = Package(
    name: "InventoryService",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "Inventory",
            dependencies: [
                .product(name: "Strata", package: "Strata"), .product(name: "StrataStores", package: "Strata"),
                .product(name: "StrataPostgres", package: "Strata"), .product(name: "StrataService", package: "Strata"),
                .product(name: "StrataTelemetry", package: "Strata"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
        .executableTarget(
            name: "InventoryServer",
            dependencies: [
                "Inventory", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .testTarget(
            name: "InventoryTests",
            dependencies: [
                "Inventory", .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "StrataPostgresTesting", package: "Strata"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
