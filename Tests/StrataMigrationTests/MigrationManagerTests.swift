import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// A mapping model run by the migration manager: in place and across store types, with
/// inferred and hand-written mappings, and failures that leave the source as it was.
@Suite struct MigrationManagerTests {
    static let typeNames = StoreType.builtInFileTypes.map(\.name)

    static func type(_ name: String) throws -> StoreType {
        try #require(StoreType.builtInFileTypes.first { $0.name == name })
    }

    @Test(arguments: typeNames)
    func anInferredMigrationInPlaceCarriesEveryChange(_ typeName: String) throws {
        let type = try Self.type(typeName)
        let directory = try TemporaryDirectory()
        let url = directory.file("library.store")
        try LibraryVersions.writeVersion1(type, at: url)
        let identifier = try #require(try type.metadata(ofFileAt: url)).storeIdentifier
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))

        try MigrationManager(sourceModel: version1, destinationModel: version2)
            .migrateStore(at: url, type: type, mapping: try .inferred(from: version1, to: version2))

        let metadata = try #require(try type.metadata(ofFileAt: url))
        #expect(metadata.storeIdentifier == identifier)
        #expect(metadata.versionIdentifiers == ["2"])
        #expect(version2.isConfiguration(nil, compatibleWithStoreMetadata: metadata))
        #expect(try LibraryVersions.summary(of: url, type: type, model: version2) == LibraryVersions.migratedSummary)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy {
                !$0.contains("migrating")
            })
    }

    @Test(arguments: [("SQLite", "LMDB"), ("LMDB", "XML"), ("XML", "Binary"), ("Binary", "SQLite")])
    func aMigrationMayChangeTheStoreTypeToo(from sourceName: String, to destinationName: String) throws {
        let (sourceType, destinationType) = (try Self.type(sourceName), try Self.type(destinationName))
        let directory = try TemporaryDirectory()
        let source = directory.file("library.old")
        try LibraryVersions.writeVersion1(sourceType, at: source)
        let before = try DirectorySnapshot(directory.url)
        let (version1, version3) = (LibraryVersions.model(1), LibraryVersions.model(3))
        let destination = directory.file("library.new")

        try MigrationManager(sourceModel: version1, destinationModel: version3)
            .migrateStore(
                from: source, type: sourceType, to: destination, type: destinationType,
                mapping: try .inferred(from: version1, to: version3))

        #expect(try StoreType.builtInFileType(ofFileAt: destination).name == destinationName)
        #expect(
            try LibraryVersions.summary(of: destination, type: destinationType, model: version3)
                == LibraryVersions.version3Summary)
        #expect(try DirectorySnapshot(directory.url).files.filter { $0.key.hasPrefix("library.old") } == before.files)
    }

    @Test(arguments: typeNames)
    func aValueThatDoesNotFitFailsAndLeavesTheSourceByteForByte(_ typeName: String) throws {
        let type = try Self.type(typeName)
        let directory = try TemporaryDirectory()
        let url = directory.file("library.store")
        try LibraryVersions.writeVersion1(type, at: url)
        let (version1, version4) = (LibraryVersions.model(1), LibraryVersions.model(4))
        let before = try DirectorySnapshot(directory.url)

        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: version1, destinationModel: version4)
                .migrateStore(at: url, type: type, mapping: try .inferred(from: version1, to: version4))
        }
        #expect(error?.code == .invalidValue)
        #expect(error?.entityName == "Book")
        #expect(error?.propertyName == "edition")
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    @Test func aMappingNamingAnUnknownPropertyIsRefusedBeforeAnythingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        var mapping = try MappingModel.inferred(from: version1, to: version2)
        mapping.entityMappings[0].attributeMappings.append(
            PropertyMapping(name: "shoeSize", valueExpression: .source("born")))
        let before = try DirectorySnapshot(directory.url)

        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: version1, destinationModel: version2)
                .migrateStore(at: url, type: .sqlite, mapping: mapping)
        }
        #expect(error?.code == .invalidMapping)
        #expect(error?.propertyName == "shoeSize")
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    @Test func aStoreOfAnotherModelIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let (version2, version3) = (LibraryVersions.model(2), LibraryVersions.model(3))
        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: version2, destinationModel: version3)
                .migrateStore(at: url, type: .sqlite, mapping: try .inferred(from: version2, to: version3))
        }
        #expect(error?.code == .noMatchingVersion)
        #expect(error?.message.contains("'Author'") == true)
    }

    @Test func aHandWrittenMappingEvaluatesExpressionsAndFiltersItsSource() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.lmdb")
        try LibraryVersions.writeVersion1(.lmdb, at: url)
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        let known = try FetchPredicate(format: "$source.born != nil")
        let mapping = MappingModel(entityMappings: [
            EntityMapping(
                name: "KnownAuthors", kind: .transform, sourceEntityName: "Author", destinationEntityName: "Writer",
                attributeMappings: [
                    PropertyMapping(name: "name", valueExpression: .function("uppercase", [.source("name")])),
                    PropertyMapping(name: "born", valueExpression: .source("born")),
                    PropertyMapping(name: "rating", valueExpression: .constant(.integer16(5))),
                ],
                relationshipMappings: [
                    PropertyMapping(
                        name: "books",
                        valueExpression: .destinationInstances(
                            forEntityMappingNamed: "Books", sourceInstances: .source("books")))
                ],
                sourceFilter: known),
            EntityMapping(
                name: "Books", kind: .transform, sourceEntityName: "Book", destinationEntityName: "Book",
                attributeMappings: [PropertyMapping(name: "title", valueExpression: .source("title"))],
                relationshipMappings: [
                    PropertyMapping(
                        name: "author",
                        valueExpression: .destinationInstances(
                            forEntityMappingNamed: "KnownAuthors", sourceInstances: .source("author")))
                ]),
        ])

        try MigrationManager(sourceModel: version1, destinationModel: version2)
            .migrateStore(at: url, type: .lmdb, mapping: mapping)

        #expect(
            try LibraryVersions.summary(of: url, type: .lmdb, model: version2) == [
                "Book pages=- title=Dunes author=ANN prize=-",
                "Book pages=- title=Notes author=- prize=-",
                "Book pages=- title=Tides author=ANN prize=-",
                "Writer alias=- born=1950 name=ANN rating=5.0 books=[Dunes, Tides]",
            ])
    }

    @Test func aMappingOfAnUnchangedEntityStillEvaluatesItsExpressions() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let (version1, sameAgain) = (LibraryVersions.model(1), LibraryVersions.model(1))
        var mapping = try MappingModel.inferred(from: version1, to: sameAgain)
        let author = try #require(mapping.entityMappings.firstIndex { $0.name == "AuthorToAuthor" })
        #expect(mapping.entityMappings[author].kind == .copy)
        let name = try #require(mapping.entityMappings[author].attributeMappings.firstIndex { $0.name == "name" })
        mapping.entityMappings[author].attributeMappings[name].valueExpression = .function(
            "uppercase", [.source("name")])

        try MigrationManager(sourceModel: version1, destinationModel: sameAgain)
            .migrateStore(at: url, type: .sqlite, mapping: mapping)

        let names = try LibraryVersions.summary(of: url, type: .sqlite, model: sameAgain).filter {
            $0.hasPrefix("Author")
        }
        #expect(names.count == 2)
        #expect(names.allSatisfy { $0.contains("name=ANN") || $0.contains("name=BOB") }, "\(names)")
    }

    @Test func aSourceKeyTheSourceDoesNotStoreIsRefusedBeforeAnythingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        var mapping = try MappingModel.inferred(from: version1, to: version2)
        let writer = try #require(mapping.entityMappings.firstIndex { $0.name == "AuthorToWriter" })
        mapping.entityMappings[writer].attributeMappings[0].valueExpression = .source("nmae")
        let before = try DirectorySnapshot(directory.url)
        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: version1, destinationModel: version2)
                .migrateStore(at: url, type: .sqlite, mapping: mapping)
        }
        #expect(error?.code == .invalidMapping)
        #expect(error?.message.contains("$source.nmae") == true)
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    @Test func progressIsReportedUpToEveryObject() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        let reports = Locked<[MigrationProgress]>([])
        try MigrationManager(sourceModel: version1, destinationModel: version2)
            .migrateStore(at: url, type: .sqlite, mapping: try .inferred(from: version1, to: version2)) { progress in
                reports.withLock { $0.append(progress) }
            }
        let seen = reports.withLock { $0 }
        #expect(seen.last == MigrationProgress(completedObjects: 5, totalObjects: 5))
        #expect(seen.map(\.completedObjects) == seen.map(\.completedObjects).sorted())
    }

    @Test func aCancelledTaskStopsTheMigrationAndKeepsTheSource() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let before = try DirectorySnapshot(directory.url)
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        let mapping = try MappingModel.inferred(from: version1, to: version2)
        let migration = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try MigrationManager(sourceModel: version1, destinationModel: version2)
                .migrateStore(at: url, type: .sqlite, mapping: mapping)
        }
        let error = await #expect(throws: MigrationError.self) { try await migration.value }
        #expect(error?.code == .cancelled)
        #expect(try DirectorySnapshot(directory.url) == before)
    }
}

/// Bad input to a migration, for every file store type: a typed error naming what is wrong,
/// and the store byte for byte as it was.
@Suite struct MigrationBadInputTests {
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        case unknownKey, unevaluable, unregisteredPolicy, unknownVersion

        var testDescription: String { rawValue }
    }

    static let cases = MigrationManagerTests.typeNames.flatMap { type in Fault.allCases.map { (type, $0) } }

    @Test(arguments: cases)
    func aBadMigrationIsNamedAndLeavesTheStore(_ typeName: String, _ fault: Fault) throws {
        let type = try MigrationManagerTests.type(typeName)
        let directory = try TemporaryDirectory()
        let url = directory.file("library.store")
        try LibraryVersions.writeVersion1(type, at: url)
        let before = try DirectorySnapshot(directory.url)
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        var mapping = try MappingModel.inferred(from: version1, to: version2)
        let writer = try #require(mapping.entityMappings.firstIndex { $0.name == "AuthorToWriter" })
        var source = version1
        switch fault {
        case .unknownKey:
            mapping.entityMappings[writer].attributeMappings.append(
                PropertyMapping(name: "nickname", valueExpression: .source("born")))
        case .unevaluable:
            mapping.entityMappings[writer].attributeMappings[0].valueExpression = .function("noSuchFunction", [])
        case .unregisteredPolicy:
            mapping.entityMappings[writer].migrationPolicyName = "App.Nobody"
        case .unknownVersion:
            source = LibraryVersions.model(3)
        }
        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: source, destinationModel: version2)
                .migrateStore(at: url, type: type, mapping: mapping)
        }
        let expected: [Fault: (MigrationError.Code, String)] = [
            .unknownKey: (.invalidMapping, "'nickname'"), .unevaluable: (.evaluationFailed, "noSuchFunction"),
            .unregisteredPolicy: (.unknownPolicy, "App.Nobody"), .unknownVersion: (.noMatchingVersion, "'Author'"),
        ]
        let (code, named) = try #require(expected[fault])
        #expect(error?.code == code)
        #expect(error?.message.contains(named) == true, "\(error?.message ?? "")")
        #expect(try DirectorySnapshot(directory.url) == before)
    }
}
