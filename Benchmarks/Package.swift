// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// The root package's identity: the name of the folder this package sits in.
let strata = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// The benchmarks live in their own package so that their dependencies never slow `make test`.
let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(name: "CBenchSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CBenchLMDB", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        .systemLibrary(name: "CBenchXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CBenchPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .executableTarget(
            name: "StrataBench",
            dependencies: [
                .product(name: "Strata", package: strata),
                .product(name: "StrataSQLite", package: strata),
                .product(name: "StrataLMDB", package: strata),
                .product(name: "StrataXML", package: strata),
                .product(name: "StrataBinary", package: strata),
                .product(name: "StrataPostgres", package: strata),
                .product(name: "StrataPostgresTesting", package: strata),
                .product(name: "StrataSearch", package: strata),
                .product(name: "StrataTelemetry", package: strata),
                .product(name: "StrataSync", package: strata),
                .product(name: "StrataSyncServer", package: strata),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "CBenchSQLite", "CBenchLMDB", "CBenchXML2", "CBenchPostgres",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
