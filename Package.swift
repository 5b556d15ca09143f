// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Strata",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataXcodeModel", targets: ["StrataXcodeModel"]),
        .library(name: "StrataConformance", targets: ["StrataConformance"]),
        .library(name: "StrataConformanceTesting", targets: ["StrataConformanceTesting"]),
        .library(name: "StrataBinary", targets: ["StrataBinary"]),
        .library(name: "StrataXML", targets: ["StrataXML"]),
        .library(name: "StrataSQLite", targets: ["StrataSQLite"]),
        .library(name: "StrataLMDB", targets: ["StrataLMDB"]),
        .library(name: "StrataPostgres", targets: ["StrataPostgres"]),
        .library(name: "StrataPostgresTesting", targets: ["StrataPostgresTesting"]),
        .library(name: "StrataStores", targets: ["StrataStores"]),
        .library(name: "StrataSearch", targets: ["StrataSearch"]),
        .library(name: "StrataService", targets: ["StrataService"]),
        .library(name: "StrataTelemetry", targets: ["StrataTelemetry"]),
        .library(name: "StrataSync", targets: ["StrataSync"]),
        .library(name: "StrataSyncServer", targets: ["StrataSyncServer"]),
        .executable(name: "strata", targets: ["StrataCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CStrataSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CStrataLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        .systemLibrary(
            name: "CStrataZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CStrataXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CStrataPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(
            name: "Strata",
            dependencies: [
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StrataXcodeModel",
            dependencies: ["Strata", "CStrataXML2", "CStrataZlib", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "StrataSQLite",
            dependencies: ["Strata", "CStrataSQLite", .product(name: "Logging", package: "swift-log")],
            path: "Stores/SQLite"),
        .target(
            name: "StrataLMDB", dependencies: ["Strata", "CStrataLMDB"], path: "Stores/LMDB"),
        .target(
            name: "StrataPostgres",
            dependencies: ["Strata", "CStrataPostgres", .product(name: "Logging", package: "swift-log")],
            path: "Stores/Postgres"),
        .target(name: "StrataConformance", dependencies: ["Strata"], path: "Conformance/StrataConformance"),
        .target(
            name: "StrataConformanceTesting", dependencies: ["StrataConformance"],
            path: "Conformance/StrataConformanceTesting"),
        .target(
            name: "StrataTestSupport",
            dependencies: ["Strata", "StrataPostgresTesting", .product(name: "Logging", package: "swift-log")],
            path: "Tests/StrataTestSupport"),
        .target(name: "StrataPostgresTesting"),
        .target(name: "StrataSearch", dependencies: ["Strata", "StrataSQLite", "CStrataSQLite"]),
        .target(name: "StrataSync", dependencies: ["Strata", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "StrataSyncServer",
            dependencies: [
                "StrataSync", "Strata", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .testTarget(
            name: "StrataSyncServerTests",
            dependencies: ["StrataSyncServer", "StrataSync", "Strata", "StrataSQLite", "StrataTestSupport"]),
        .testTarget(
            name: "StrataSyncTests",
            dependencies: [
                "StrataSync", "Strata", "StrataConformance", "StrataSQLite", "StrataXML", "StrataLMDB", "StrataBinary",
                "StrataPostgres", "StrataPostgresTesting", "StrataSyncServer", "StrataTestSupport",
            ]),
        .testTarget(
            name: "StrataSearchTests",
            dependencies: ["StrataSearch", "StrataStores", "StrataPostgres", "StrataTestSupport"]),
        .target(
            name: "StrataService",
            dependencies: [
                "Strata", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "StrataServiceTests",
            dependencies: [
                "StrataService", "StrataStores", "StrataTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]),
        .target(
            name: "StrataTelemetry",
            dependencies: [
                "Strata", .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .testTarget(
            name: "StrataTelemetryTests",
            dependencies: [
                "StrataTelemetry", "StrataStores", "StrataPostgres", "StrataTestSupport",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .executableTarget(
            name: "SearchExportWorker", dependencies: ["StrataSearch", "StrataSQLite", "StrataTestSupport"],
            path: "Tests/SearchExportWorker"),
        .executableTarget(
            name: "JSONStoreConformanceWorker", dependencies: ["StrataConformance", "StrataTestSupport"],
            path: "Tests/JSONStoreConformanceWorker"),
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata", "StrataTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "StrataConformanceTests",
            dependencies: ["Strata", "StrataConformance", "StrataConformanceTesting", "StrataTestSupport"]
        ),
        .executableTarget(
            name: "SQLiteStoreConformanceWorker", dependencies: ["StrataConformance", "StrataSQLite"],
            path: "Tests/SQLiteStoreConformanceWorker"),
        .executableTarget(
            name: "SoakWorker", dependencies: ["StrataSQLite", "StrataLMDB", "StrataXML", "StrataTestSupport"],
            path: "Tests/SoakWorker"),
        .executableTarget(
            name: "SQLiteContentionWorker",
            dependencies: ["StrataSQLite", "StrataTestSupport", .product(name: "Logging", package: "swift-log")],
            path: "Tests/SQLiteContentionWorker"),
        .testTarget(
            name: "StrataSQLiteTests",
            dependencies: [
                "StrataSQLite", "StrataTestSupport", "StrataConformance", "StrataConformanceTesting",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(name: "StrataBinary", dependencies: ["Strata"], path: "Stores/Binary"),
        .executableTarget(
            name: "BinaryStoreConformanceWorker", dependencies: ["StrataConformance", "StrataBinary"],
            path: "Tests/BinaryStoreConformanceWorker"),
        .executableTarget(
            name: "PostgresCounterWorker",
            dependencies: ["StrataPostgres", "StrataTestSupport", .product(name: "Logging", package: "swift-log")],
            path: "Tests/PostgresCounterWorker"),
        .executableTarget(
            name: "PostgresStripedSaveWorker", dependencies: ["StrataPostgres", "StrataSQLite", "StrataTestSupport"],
            path: "Tests/PostgresStripedSaveWorker"),
        .executableTarget(
            name: "PostgresStoreConformanceWorker",
            dependencies: ["StrataConformance", "StrataPostgres", "StrataTestSupport"],
            path: "Tests/PostgresStoreConformanceWorker"),
        .testTarget(
            name: "StrataPostgresTests",
            dependencies: [
                "StrataPostgres", "CStrataPostgres", "StrataSQLite", "StrataTestSupport", "StrataConformance",
                "StrataConformanceTesting", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "StrataBinaryTests",
            dependencies: ["StrataBinary", "StrataTestSupport", "StrataConformance", "StrataConformanceTesting"]),
        .target(name: "StrataXML", dependencies: ["Strata", "CStrataXML2"], path: "Stores/XML"),
        .executableTarget(
            name: "XMLStoreConformanceWorker", dependencies: ["StrataConformance", "StrataXML"],
            path: "Tests/XMLStoreConformanceWorker"),
        .testTarget(
            name: "StrataXMLTests",
            dependencies: ["StrataXML", "StrataTestSupport", "StrataConformance", "StrataConformanceTesting"]),
        .executableTarget(
            name: "LMDBStoreConformanceWorker", dependencies: ["StrataConformance", "StrataLMDB"],
            path: "Tests/LMDBStoreConformanceWorker"),
        .testTarget(
            name: "StrataLMDBTests",
            dependencies: [
                "StrataLMDB", "StrataTestSupport", "StrataConformance", "StrataConformanceTesting",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "SyncNotesExample",
            dependencies: [
                "StrataSync", "StrataSyncServer", "StrataSQLite", "StrataXML",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/SyncNotes"),
        .executableTarget(
            name: "SyncWorker",
            dependencies: ["StrataSync", "StrataSQLite", "StrataXML", "StrataLMDB", "StrataBinary"],
            path: "Tests/SyncWorker"),
        .executableTarget(
            name: "HistoryWriterWorker",
            dependencies: ["StrataSQLite", "StrataLMDB", "StrataPostgres", "StrataTestSupport"],
            path: "Tests/HistoryWriterWorker"),
        .executableTarget(
            name: "LMDBReadWriteWorker", dependencies: ["StrataLMDB", "StrataTestSupport"],
            path: "Tests/LMDBReadWriteWorker"),
        .target(
            name: "StrataStores",
            dependencies: [
                "Strata", "StrataSQLite", "StrataLMDB", "StrataXML", "StrataBinary",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "StrataStoresTests",
            dependencies: [
                "StrataStores", "StrataSQLite", "StrataLMDB", "StrataXML", "StrataBinary", "StrataPostgres",
                "StrataTestSupport",
            ]),
        .executableTarget(
            name: "StrataCommand",
            dependencies: [
                "StrataStores", "StrataPostgres", "StrataXcodeModel", "StrataConformance", "StrataSearch", "StrataSync",
                "StrataSyncServer", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "StrataCommandTests",
            dependencies: ["Strata", "StrataStores", "StrataPostgres", "StrataSync", "StrataTestSupport"]),
        .testTarget(
            name: "StrataReadmeTests",
            dependencies: [
                "Strata", "StrataStores", "StrataPostgres", "StrataConformance", "StrataConformanceTesting",
                "StrataSearch", "StrataTestSupport",
            ]),
        .testTarget(
            name: "StrataMigrationTests",
            dependencies: [
                "Strata", "StrataStores", "StrataSQLite", "StrataXcodeModel", "StrataTestSupport", "StrataPostgres",
                "StrataPostgresTesting",
            ]),
        .testTarget(
            name: "StrataXcodeModelTests",
            dependencies: ["Strata", "StrataXcodeModel", "StrataSQLite", "CStrataSQLite"]
        ),
        .target(
            name: "StrataFuzzTargets",
            dependencies: [
                "Strata", "StrataXcodeModel", "StrataXML", "StrataBinary", "StrataSQLite", "StrataLMDB", "CStrataLMDB",
            ],
            path: "Fuzz/Targets"),
        .executableTarget(name: "StrataFuzzer", dependencies: ["StrataFuzzTargets"], path: "Fuzz/Fuzzer"),
        .testTarget(name: "StrataFuzzTests", dependencies: ["StrataFuzzTargets", "StrataTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
