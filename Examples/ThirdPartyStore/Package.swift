// swift-tools-version: 6.0
import PackageDescription

// A store of its own, built on Strata's store SPI from outside the Strata package: an
// incremental store over one plain text file, its conformance worker and its conformance test.
let package = Package(
    name: "ThirdPartyStore",
    platforms: [.macOS(.v15)],
    products: [.library(name: "JournalStore", targets: ["JournalStore"])],
    dependencies: [.package(name: "Strata", path: "../..")],
    targets: [
        .target(name: "JournalStore", dependencies: [.product(name: "Strata", package: "Strata")]),
        .executableTarget(
            name: "JournalStoreWorker",
            dependencies: ["JournalStore", .product(name: "StrataConformance", package: "Strata")]),
        .testTarget(
            name: "JournalStoreTests",
            dependencies: [
                "JournalStore", .product(name: "StrataConformance", package: "Strata"),
                .product(name: "StrataConformanceTesting", package: "Strata"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
