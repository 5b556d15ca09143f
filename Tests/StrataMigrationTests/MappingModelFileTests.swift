import Foundation
import Strata
import StrataStores
import StrataTestSupport
import StrataXcodeModel
import Testing

/// Xcode's mapping models (`.xcmappingmodel`) and compiled ones (`.cdm`) read and run against
/// the stores of the projects they come from, with their custom policies written in Swift.
@Suite struct MappingModelFileTests {
    static let wibosco = MigrationPolicyTests.project
    static let mappings = wibosco + "CoreDataMigration-Example/CoreData/Migration/Mappings/"
    static func store(_ version: Int) -> String {
        wibosco + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_\(version).sqlite"
    }

    @Test func anXcodeMappingModelReadsItsExpressionsAndGeneratesTheRest() throws {
        let bundle = try MigrationPolicyTests.bundle()
        let mapping = try bundle.mappingModel(
            contentsOf: AppleFixtures.url(Self.mappings + "Migration1to2.xcmappingmodel"))
        #expect(mapping.entityMappings.map(\.name) == ["PostToPost"])
        let post = try #require(mapping.entityMappings.first)
        #expect(post.kind == .transform)
        let expressions = Dictionary(uniqueKeysWithValues: post.attributeMappings.map { ($0.name, $0.valueExpression) })
        #expect(expressions == ["hexColor": .source("color"), "date": .source("date"), "postID": .source("postID")])
        let version1 = try bundle.model(named: "CoreDataMigration_Example")
        try version1.freeze()
        #expect(post.sourceEntityVersionHash == version1.schema.entitiesByName["Post"]?.versionHash)
    }

    /// Version 1 → 2 by `Migration1to2` (`color` becomes `hexColor` by a value expression),
    /// 2 → 3 by `Migration2to3` and its policy (the colour becomes a `Color` object), 3 → 4
    /// inferred: the whole chain in one call, over the 1 001 posts of the version 1 store.
    @Test func theWholeChainRunsInOneCall() throws {
        let bundle = try MigrationPolicyTests.bundle()
        let steps = try ["Migration1to2", "Migration2to3"].map {
            try bundle.mappingModel(contentsOf: AppleFixtures.url(Self.mappings + $0 + ".xcmappingmodel"))
        }
        let plan = try bundle.migrationPlan(
            mappingModels: steps, policies: ["Post2ToPost3MigrationPolicy": MigrationPolicyTests.SplitColour()])
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(Self.store(1), into: directory)
        let before = try AppleFixtures.objects(
            of: "Post", in: url, model: try bundle.model(named: "CoreDataMigration_Example"))
        #expect(before.count == 1001)

        let ran = try plan.migrateStore(at: url, type: .sqlite, to: try bundle.currentModel())

        #expect(ran.map(\.isInferred) == [false, false, true])
        let labels = ["Color": "hex", "Post": "postID"]
        let after = try AppleFixtures.objects(of: "Post", in: url, model: try bundle.currentModel(), label: labels)
        #expect(
            AppleStoreMigrationTests.lines(
                after.map { ["postID": $0["postID"] ?? "", "date": $0["date"] ?? "", "colour": $0["color"] ?? ""] })
                == AppleStoreMigrationTests.lines(
                    before.map {
                        ["postID": $0["postID"] ?? "", "date": $0["date"] ?? "", "colour": $0["color"] ?? ""]
                    }))
        #expect(after.allSatisfy { $0["hide"] == "false" })
        #expect(try AppleFixtures.objects(of: "Color", in: url, model: try bundle.currentModel()).count == 1001)
    }

    @Test func theLoadedMappingIsTheHandWrittenOne() throws {
        let bundle = try MigrationPolicyTests.bundle()
        let loaded = try bundle.mappingModel(
            contentsOf: AppleFixtures.url(Self.mappings + "Migration2to3.xcmappingmodel"))
        #expect(loaded.entityMappings.map(\.name) == ["Color", "PostToPost"])
        #expect(loaded.entityMappings.map(\.kind) == [.add, .custom])
        #expect(
            loaded.entityMappings[1].attributeMappings.map(\.valueExpression)
                == MigrationPolicyTests.splitColourMapping.entityMappings[1].attributeMappings.map(\.valueExpression))
        #expect(loaded.entityMappings[1].migrationPolicyName == "CoreDataMigration_Example.Post2ToPost3MigrationPolicy")
    }

    /// What CoreDataPlus's `V2to3MakerPolicy` is for: each car's `maker` string becomes a
    /// shared `Maker` object, made once per name.
    struct MakerFromName: MigrationPolicy {
        func createDestinationInstances(for source: MigrationSourceInstance, in migration: MigrationPolicyContext)
            throws
        {
            let car = try migration.makeDestinationInstance(for: source)
            let name = try source.value(forKey: "maker")
            guard !name.isNull else { return }
            let maker =
                try migration.destinationInstances(ofEntity: "Maker").first { $0.value(forKey: "name") == name }
                ?? {
                    let made = try migration.insertDestinationInstance(ofEntity: "Maker")
                    try made.setValue(name, forKey: "name")
                    return made
                }()
            try car.setObject(maker, forKey: "createdBy")
        }
    }

    static let plus = "alemar11-CoreDataPlus/Tests/Resources/SampleModel/"

    /// SampleModel 2 → 3 by CoreDataPlus's mapping, compiled (`V2toV3.cdm`) and as edited
    /// (`V2toV3.xcmappingmodel`), over the store Core Data wrote for version 2.
    @Test(arguments: ["compiled", "edited"])
    func aMappingModelWithAPolicyOnSubentitiesRuns(_ form: String) throws {
        let bundle = try XcodeVersionedModel(contentsOf: AppleFixtures.url(Self.plus + "SampleModel.xcdatamodeld"))
        let (version2, version3) = (try bundle.model(named: "SampleModel2"), try bundle.model(named: "SampleModel3"))
        let mapping =
            form == "compiled"
            ? try MappingModelFile.loadCompiled(contentsOf: AppleFixtures.url(Self.plus + "Fixtures/V2toV3.cdm"))
            : try MappingModelFile.load(
                contentsOf: AppleFixtures.url(Self.plus + "MappingModels/V2toV3.xcmappingmodel"), sourceModel: version2,
                destinationModel: version3)
        #expect(Set(mapping.entityMappings.map(\.name)).isSuperset(of: ["CarToCar", "PersonToPerson", "Maker"]))
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(Self.plus + "Fixtures/SampleModel_V2.sqlite", into: directory)
        let labels = [
            "Car": "numberPlate", "SportCar": "numberPlate", "LuxuryCar": "numberPlate", "Person": "lastName",
        ]
        let before = try AppleFixtures.objects(of: "Car", in: url, model: version2, label: labels)

        let steps = try MigrationPlan(
            versions: [.init(name: "2", model: version2), .init(name: "3", model: version3)], mappingModels: [mapping],
            policies: ["V2to3MakerPolicy": MakerFromName()]
        ).migrateStore(at: url, type: .sqlite, to: version3)

        #expect(steps.map(\.isInferred) == [false])
        var carLabels = labels
        carLabels["Maker"] = "name"
        let cars = AppleFixtures.byKey(
            try AppleFixtures.objects(of: "Car", in: url, model: version3, label: carLabels), "numberPlate")
        #expect(cars.count == before.count)
        for old in before {
            let new = try #require(cars[old["numberPlate"] ?? ""])
            #expect(new["entity"] == old["entity"])
            #expect(new["createdBy"] == old["maker"])
            #expect(new["owner"] == old["owner"])
            #expect(new["previousOwners"] == (old["owner"] == "-" ? "[]" : "[\"\(old["owner"] ?? "")\"]"))
            #expect(new["model"] == old["model"])
        }
        let makers = try AppleFixtures.objects(of: "Maker", in: url, model: version3, label: carLabels)
        #expect(Set(makers.compactMap { $0["name"] }) == Set(before.compactMap { $0["maker"] }).subtracting(["-"]))
        #expect(makers.count == Set(makers.compactMap { $0["name"] }).count)
    }

    @Test func aMappingModelNamingAnUnknownEntityFailsAndLeavesTheStore() throws {
        let (directory, mappings) = (try TemporaryDirectory(), try TemporaryDirectory())
        let edited = mappings.file("Broken.xcmappingmodel")
        try FileManager.default.createDirectory(at: edited, withIntermediateDirectories: true)
        let text = try String(
            contentsOf: AppleFixtures.url(Self.mappings + "Migration1to2.xcmappingmodel/xcmapping.xml"), encoding: .utf8
        )
        try text.replacingOccurrences(of: ">Post</attribute>", with: ">Poster</attribute>")
            .write(to: edited.appendingPathComponent("xcmapping.xml"), atomically: true, encoding: .utf8)
        let bundle = try MigrationPolicyTests.bundle()
        let mapping = try bundle.mappingModel(contentsOf: edited)
        let url = try AppleFixtures.copyStore(Self.store(1), into: directory)
        let before = try DirectorySnapshot(directory.url)
        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(
                sourceModel: try bundle.model(named: "CoreDataMigration_Example"),
                destinationModel: try bundle.model(named: "CoreDataMigration_Example 2")
            ).migrateStore(at: url, type: .sqlite, mapping: mapping)
        }
        #expect(error?.code == .invalidMapping)
        #expect(error?.message.contains("'Poster'") == true)
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    @Test func aDamagedCompiledMappingModelIsATypedErrorNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        let damaged = directory.file("V2toV3.cdm")
        let bytes = try Data(contentsOf: AppleFixtures.url(Self.plus + "Fixtures/V2toV3.cdm"))
        try bytes.prefix(bytes.count / 2).write(to: damaged)
        let error = #expect(throws: ModelError.self) { try MappingModelFile.loadCompiled(contentsOf: damaged) }
        #expect(error?.code == .malformedFile)
        #expect(error?.message.contains(damaged.path) == true)
    }
}
