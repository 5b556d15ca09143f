import Foundation
import Logging
import Strata
import Testing

@testable import StrataXcodeModel

/// ``CompiledModel`` and ``CompiledVersionedModel`` read the compiled models of the CoreDataPlus
/// fixtures (Xcode's `.momd` output) into the models Strata reads from their `.xcdatamodeld`
/// sources, with the version hashes Xcode wrote into `VersionInfo.plist`; and the archived forms
/// no fixture holds, written into copies of a fixture archive, read as Core Data's coders write
/// them.
@Suite struct CompiledModelTests {
    private static let plus = "alemar11-CoreDataPlus/Tests/Resources/"
    private static let sampleModel = plus + "SampleModel/Fixtures/SampleModel.momd"
    private static let sampleModel3 = plus + "SampleModel3/Fixtures/SampleModel3.momd"

    /// The compiled model folders and the model bundles they were compiled from.
    static let bundles = [
        (sampleModel, plus + "SampleModel/SampleModel.xcdatamodeld"),
        (sampleModel3, plus + "SampleModel3/SampleModel3.xcdatamodeld"),
    ]

    // MARK: - Fixtures

    /// Every version loads unfrozen and freezes; its entity hashes equal those of the same
    /// version read from its source, and those `VersionInfo.plist` lists for it.
    @Test(arguments: bundles)
    func versionHashesEqualTheSourcesAndVersionInfo(_ momd: String, _ bundle: String) throws {
        let compiled = try CompiledVersionedModel(contentsOf: FixturePaths.url(momd))
        let source = try XcodeVersionedModel(contentsOf: FixturePaths.url(bundle))
        let (listed, _) = try VersionHashFixtureTests.versionInfo(momd)
        #expect(compiled.versionNames == source.versionNames)
        #expect(Set(listed.keys) == Set(compiled.versionNames))
        for name in compiled.versionNames {
            let model = try compiled.model(named: name)
            #expect(!model.isFrozen)
            try model.freeze()
            let sourceModel = try source.model(named: name)
            try sourceModel.freeze()
            let hashes = model.schema.entityVersionHashes
            #expect(!hashes.isEmpty)
            #expect(hashes == sourceModel.schema.entityVersionHashes, "version \(name)")
            #expect(hashes == listed[name], "version \(name)")
            #expect(model.schema.versionChecksum == sourceModel.schema.versionChecksum, "version \(name)")
        }
    }

    /// Every version's entities equal, field by field, those read from its source: names,
    /// classes, inheritance, abstractness, attributes (types, optionality, transience, defaults,
    /// value transformers, preserved values), relationships (destinations, inverses, counts,
    /// order, delete rules), uniqueness constraints, fetch indexes and renaming identifiers; and
    /// so do the version identifiers, configurations and fetch request templates. Nothing the
    /// fixtures' sources hold is lost in compilation, so the whole descriptions are compared.
    @Test(arguments: bundles)
    func modelsEqualTheSources(_ momd: String, _ bundle: String) throws {
        let compiled = try CompiledVersionedModel(contentsOf: FixturePaths.url(momd))
        let source = try XcodeVersionedModel(contentsOf: FixturePaths.url(bundle))
        for name in compiled.versionNames {
            let model = try compiled.model(named: name)
            let sourceModel = try source.model(named: name)
            #expect(model.entities.map(\.name) == sourceModel.entities.map(\.name), "version \(name)")
            for (entity, sourceEntity) in zip(model.entities, sourceModel.entities) {
                #expect(entity.attributes == sourceEntity.attributes, "\(name) \(entity.name)")
                #expect(entity.relationships == sourceEntity.relationships, "\(name) \(entity.name)")
                #expect(entity == sourceEntity, "\(name) \(entity.name)")
            }
            #expect(model.versionIdentifiers == sourceModel.versionIdentifiers, "version \(name)")
            #expect(model.configurations == sourceModel.configurations, "version \(name)")
            #expect(model.fetchRequestTemplates == sourceModel.fetchRequestTemplates, "version \(name)")
        }
    }

    /// The fields the hashes do not show: defaults, transience, preserved values, renaming, the
    /// fetch index of SampleModel2.
    @Test func fieldsOfTheSampleModel() throws {
        let compiled = try CompiledVersionedModel(contentsOf: FixturePaths.url(Self.sampleModel))
        let first = try compiled.model(named: "SampleModel")
        let car = try #require(first.entity(named: "Car"))
        #expect(car.className == "Car")
        #expect(car.uniquenessConstraints == [["numberPlate"]])
        #expect(
            car.attributes.map(\.name) == [
                "color", "currentDrivingSpeed", "maker", "markedForDeletionAsOf", "model", "numberPlate",
            ])
        let speed = try #require(car.attribute(named: "currentDrivingSpeed"))
        #expect(speed.type == .integer64)
        #expect(speed.isTransient && speed.isOptional)
        #expect(speed.defaultValue == .integer64(0))
        #expect(car.attribute(named: "color")?.valueTransformerName == "ColorTransformer")
        #expect(car.attribute(named: "numberPlate")?.isOptional == false)
        let owner = try #require(car.relationship(named: "owner"))
        #expect(owner.destinationEntityName == "Person" && owner.inverseName == "cars")
        #expect(!owner.isToMany && owner.maxCount == 1 && owner.deleteRule == .nullify)
        let person = try #require(first.entity(named: "Person"))
        #expect(person.uniquenessConstraints == [["firstName", "lastName"]])
        #expect(person.attribute(named: "id")?.preservesValueInHistoryOnDeletion == true)
        #expect(person.attribute(named: "isDriving")?.defaultValue == .boolean(false))
        #expect(person.attribute(named: "isDriving")?.isOptional == false)
        let cars = try #require(person.relationship(named: "cars"))
        #expect(cars.isToMany && cars.maxCount == 0 && cars.minCount == 0)
        #expect(first.entity(named: "ExpensiveSportCar")?.superentityName == "SportCar")
        #expect(first.versionIdentifiers == ["1"])

        let second = try compiled.model(named: "SampleModel2")
        #expect(second.entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
        #expect(second.entity(named: "Car")?.renamingIdentifier == nil)
        #expect(second.entity(named: "Car")?.attribute(named: "maker")?.renamingIdentifier == nil)
        #expect(
            second.entity(named: "Car")?.fetchIndexes == [
                FetchIndexDescription(
                    name: "byMakerAndNumberPlate",
                    elements: [
                        FetchIndexDescription.Element(propertyName: "maker"),
                        FetchIndexDescription.Element(propertyName: "numberPlate"),
                    ])
            ])
    }

    /// The versions and the current version are those of `VersionInfo.plist`, and so are the
    /// hashes ``CompiledVersionedModel/versionHashes`` lists.
    @Test func versionsAndCurrentVersion() throws {
        let first = try CompiledVersionedModel(contentsOf: FixturePaths.url(Self.sampleModel))
        #expect(first.versionNames == ["SampleModel", "SampleModel2", "SampleModel3"])
        #expect(first.currentVersionName == "SampleModel")
        #expect(first.versionHashes == (try VersionHashFixtureTests.versionInfo(Self.sampleModel)).hashes)
        #expect(first.versionHashes["SampleModel2"]?["LuxuryCar"]?.count == 32)

        let third = try CompiledVersionedModel(contentsOf: FixturePaths.url(Self.sampleModel3))
        #expect(third.versionNames == ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"])
        #expect(third.currentVersionName == "SampleModel3")
        #expect(third.versionHashes == (try VersionHashFixtureTests.versionInfo(Self.sampleModel3)).hashes)
        #expect(third.url(forVersion: "SampleModel3_v2").lastPathComponent == "SampleModel3_v2.mom")

        let current = try third.currentModel()
        #expect(current.entities.map(\.name) == ["User"])
        #expect(try current.entities == third.model(named: "SampleModel3").entities)
        #expect(try third.model(named: "SampleModel3") !== third.currentModel(), "every call reads a new model")
        let viaLoad = try CompiledModel.load(contentsOf: FixturePaths.url(Self.sampleModel3))
        #expect(viaLoad.entities == current.entities, "a .momd folder loads its current version")

        let plan = try third.migrationPlan()
        #expect(plan.versions.map(\.name) == third.versionNames)
    }

    @Test func unknownVersionNamesTheFolder() throws {
        let url = FixturePaths.url(Self.sampleModel)
        let compiled = try CompiledVersionedModel(contentsOf: url)
        let error = #expect(throws: ModelError.self) { try compiled.model(named: "SampleModel9") }
        #expect(error?.code == .unreadableFile)
        #expect(error?.filePath == url.path)
        #expect(error?.message.contains("SampleModel9") == true)
        #expect(error?.message.contains("SampleModel2") == true, "the message lists the versions")
    }

    /// A truncated copy of a `.mom` is refused with an error naming the copy; the other
    /// versions of its folder still load.
    @Test func damagedMomNamesTheFile() throws {
        let directory = try TemporaryDirectory()
        let momd = directory.url.appendingPathComponent("SampleModel.momd")
        try FileManager.default.copyItem(at: FixturePaths.url(Self.sampleModel), to: momd)
        let damaged = momd.appendingPathComponent("SampleModel2.mom")
        let bytes = try Data(contentsOf: damaged)
        try bytes.prefix(bytes.count / 2).write(to: damaged)

        let compiled = try CompiledVersionedModel(contentsOf: momd)
        let error = #expect(throws: ModelError.self) { try compiled.model(named: "SampleModel2") }
        #expect(error?.code == .malformedFile)
        #expect(error?.filePath == damaged.path)
        #expect(error?.message.contains(damaged.path) == true)
        let direct = #expect(throws: ModelError.self) { try CompiledModel.load(contentsOf: damaged) }
        #expect(direct?.filePath == damaged.path)
        #expect(try compiled.model(named: "SampleModel3").entities.count == 5)
    }

    @Test func missingFilesAreUnreadable() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.url.appendingPathComponent("Nothing.mom")
        let error = #expect(throws: ModelError.self) { try CompiledModel.load(contentsOf: missing) }
        #expect(error?.code == .unreadableFile)
        #expect(error?.filePath == missing.path)
        let empty = directory.url.appendingPathComponent("Empty.momd")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let noVersion = #expect(throws: ModelError.self) { try CompiledVersionedModel(contentsOf: empty) }
        #expect(noVersion?.code == .unreadableFile)
    }

    /// A compiled mapping model is a keyed archive, but not of a model.
    @Test func otherArchivesAreRefused() throws {
        let url = FixturePaths.url(Self.plus + "SampleModel/Fixtures/V2toV3.cdm")
        let error = #expect(throws: ModelError.self) { try CompiledModel.load(contentsOf: url) }
        #expect(error?.code == .malformedFile)
        #expect(error?.filePath == url.path)
        #expect(error?.message.contains("NSMappingModel") == true)
    }

    /// Without `VersionInfo.plist`, a folder's only version is current; several versions need
    /// the file, and the version it names must exist.
    @Test func versionInfoIsNeededForSeveralVersions() throws {
        let directory = try TemporaryDirectory()
        let source = FixturePaths.url(Self.sampleModel)
        let single = directory.url.appendingPathComponent("Single.momd")
        try FileManager.default.createDirectory(at: single, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: source.appendingPathComponent("SampleModel2.mom"), to: single.appendingPathComponent("Only.mom"))
        let only = try CompiledVersionedModel(contentsOf: single)
        #expect(only.versionNames == ["Only"])
        #expect(only.currentVersionName == "Only")
        #expect(only.versionHashes.isEmpty)

        let several = directory.url.appendingPathComponent("Several.momd")
        try FileManager.default.createDirectory(at: several, withIntermediateDirectories: true)
        for name in ["Model 10", "Model 2", "Model"] {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent("SampleModel.mom"), to: several.appendingPathComponent(name + ".mom"))
        }
        let unlisted = #expect(throws: ModelError.self) { try CompiledVersionedModel(contentsOf: several) }
        #expect(unlisted?.code == .unreadableFile)

        let info = several.appendingPathComponent("VersionInfo.plist")
        let plist: [String: Any] = ["NSManagedObjectModel_CurrentVersionName": "Model 3"]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: info)
        let wrong = #expect(throws: ModelError.self) { try CompiledVersionedModel(contentsOf: several) }
        #expect(wrong?.code == .malformedFile)
        #expect(wrong?.filePath == info.path)

        let right: [String: Any] = ["NSManagedObjectModel_CurrentVersionName": "Model 2"]
        try PropertyListSerialization.data(fromPropertyList: right, format: .xml, options: 0).write(to: info)
        let listed = try CompiledVersionedModel(contentsOf: several)
        #expect(listed.versionNames == ["Model", "Model 2", "Model 10"])
        #expect(listed.currentVersionName == "Model 2")
    }

    /// What Strata does not read is logged at `.debug`, once per kind.
    @Test func skippedFieldsAreLoggedAtDebugLevel() throws {
        let (logger, messages) = CapturingLogHandler.logger()
        _ = try CompiledModel.load(
            contentsOf: FixturePaths.url(Self.sampleModel + "/SampleModel.mom"), logger: logger)
        let all = messages.all
        #expect(!all.isEmpty)
        #expect(all.allSatisfy { $0.level == .debug })
        let classNames = all.filter { $0.message.contains("NSAttributeValueClassName") }
        #expect(classNames.count == 1)
        let path = FixturePaths.url(Self.sampleModel + "/SampleModel.mom").path
        #expect(classNames.first?.metadata["file"] == .string(path))
    }

    // MARK: - Archived forms the fixtures lack

    /// The fixture archive `SampleModel.mom`, to change.
    private func sampleArchive() throws -> ArchiveEditor {
        try ArchiveEditor(contentsOf: FixturePaths.url(Self.sampleModel + "/SampleModel.mom"))
    }

    /// Bounds packed into `NSMinValueName` and `NSMaxValueName`, flagged in `NSFlagsKey`
    /// (bit 2 for the minimum, 1 for the maximum), and the external-storage flag (bit 4).
    @Test func packedBoundsAndFlags() throws {
        var editor = try sampleArchive()
        let car = try editor.entity("Car")
        let numberPlate = try editor.property("numberPlate", of: car)
        editor.set("NSFlagsKey", to: .integer(3), of: numberPlate)
        editor.set("NSMinValueName", to: .integer(2), of: numberPlate)
        editor.set("NSMaxValueName", to: .integer(10), of: numberPlate)
        let color = try editor.property("color", of: car)
        editor.set("NSFlagsKey", to: .integer(4), of: color)
        let updatedAt = try editor.property("updatedAt", of: try editor.entity("Person"))
        editor.set("NSFlagsKey", to: .integer(2), of: updatedAt)
        editor.set("NSMinValueName", to: .real(86_400), of: updatedAt)

        let model = try CompiledModel.load(archive: editor.data, file: "bounds.mom")
        let plate = try #require(model.entity(named: "Car")?.attribute(named: "numberPlate"))
        #expect(plate.minLength == 2)
        #expect(plate.maxLength == 10)
        #expect(model.entity(named: "Car")?.attribute(named: "color")?.allowsExternalBinaryDataStorage == true)
        let updated = try #require(model.entity(named: "Person")?.attribute(named: "updatedAt"))
        #expect(updated.minValue == .date(Date(timeIntervalSinceReferenceDate: 86_400)))
        #expect(updated.maxValue == nil)
    }

    /// Older archives keep bounds and patterns as validation predicates; other predicates are
    /// skipped and logged.
    @Test func validationPredicatesBecomeBoundsAndPatterns() throws {
        var editor = try sampleArchive()
        let modelAttribute = try editor.property("model", of: try editor.entity("Car"))
        let length = editor.keyPath("length")
        let one = editor.constant(.integer(1))
        let minimum = editor.comparison(length, 3, one)
        let lengthAgain = editor.keyPath("length")
        let forty = editor.constant(.integer(40))
        let maximum = editor.comparison(lengthAgain, 1, forty)
        let bounds = editor.and([minimum, maximum])
        let evaluated = editor.selfExpression()
        let patternText = editor.string("[A-Z].*")
        let pattern = editor.constant(patternText)
        let matches = editor.comparison(evaluated, 6, pattern)
        let evaluatedAgain = editor.selfExpression()
        let xText = editor.string("x")
        let x = editor.constant(xText)
        let contains = editor.comparison(evaluatedAgain, 99, x)
        let predicates = editor.array([bounds, matches, contains])
        editor.set("NSValidationPredicates", to: predicates, of: modelAttribute)
        editor.set("_P", to: .integer(243 & ~0x10), of: modelAttribute)

        let (logger, messages) = CapturingLogHandler.logger()
        let model = try CompiledModel.load(archive: editor.data, file: "predicates.mom", logger: logger)
        let attribute = try #require(model.entity(named: "Car")?.attribute(named: "model"))
        #expect(attribute.minLength == 1)
        #expect(attribute.maxLength == 40)
        #expect(attribute.regularExpression == "[A-Z].*")
        #expect(attribute.isOptional)
        #expect(messages.all.contains { $0.message.contains("SELF CONTAINS \"x\"") })
        try model.freeze()
        let (listed, _) = try VersionHashFixtureTests.versionInfo(Self.sampleModel)
        #expect(model.schema.entityVersionHashes == listed["SampleModel"], "validation does not change hashes")
    }

    /// The model caches of stores archive the entities as an `NSKnownKeysDictionary1` and repeat
    /// inherited properties in every subentity; the model read is the same.
    @Test func modelCacheForm() throws {
        let plain = try CompiledModel.load(contentsOf: FixturePaths.url(Self.sampleModel + "/SampleModel.mom"))
        var editor = try sampleArchive()
        var keys: [PropertyListValue] = []
        var values: [PropertyListValue] = []
        for name in ["Car", "ExpensiveSportCar", "Person", "SportCar"] {
            let key = editor.string(name)
            keys.append(key)
            values.append(try editor.entity(name))
        }
        let keyList = editor.array(keys)
        let mapping = editor.object(
            ["NSKnownKeysMappingStrategy1", "NSObject"],
            ["keys": keyList, "length": .integer(4), "version": .integer(1)])
        let valueList = editor.array(values)
        let token = editor.string("__empty_slot_token__")
        let entities = editor.object(
            ["NSKnownKeysDictionary1", "NSDictionary", "NSObject"],
            ["values": valueList, "searchMapping": mapping, "emptyToken": token, "version": .integer(1)])
        let root = try editor.root()
        editor.set("NSEntities", to: entities, of: root)
        let carProperties = try #require(editor.field("NSProperties", of: try editor.entity("Car")))
        let sportCar = try editor.entity("SportCar")
        editor.set("NSProperties", to: carProperties, of: sportCar)

        let cached = try CompiledModel.load(archive: editor.data, file: "cache.mom")
        #expect(cached.entities == plain.entities)
        #expect(cached.entity(named: "SportCar")?.attributes.isEmpty == true)
        try cached.freeze()
        try plain.freeze()
        #expect(cached.schema.entityVersionHashes == plain.schema.entityVersionHashes)
    }

    /// Fetch request templates, configurations, fetched properties and derived attributes, as
    /// Core Data archives them (the shapes of the model cache of CoreDataPlus's
    /// `SampleModel2_V1.sqlite`).
    @Test func templatesConfigurationsFetchedAndDerivedProperties() throws {
        var editor = try sampleArchive()
        let root = try editor.root()
        let car = try editor.entity("Car")
        let person = try editor.entity("Person")

        let plate = editor.keyPath("numberPlate")
        let plateVariable = editor.variable("PLATE")
        let byPlate = editor.comparison(plate, 4, plateVariable)
        let request = editor.fetchRequest(entity: car, predicate: byPlate)
        let templateName = editor.string("carsByPlate")
        let templates = editor.dictionary(keys: [templateName], values: [request])
        editor.set("NSFetchRequestTemplates", to: templates, of: root)

        let configurationName = editor.string("Main")
        let members = editor.object(["NSSet", "NSObject"], ["NS.objects": .array([person, car])])
        let configurations = editor.dictionary(keys: [configurationName], values: [members])
        editor.set("NSConfigurations", to: configurations, of: root)

        let owner = editor.keyPath("owner")
        let fetchSource = editor.variable("FETCH_SOURCE")
        let ownedBy = editor.comparison(owner, 4, fetchSource)
        let ownCarsRequest = editor.fetchRequest(entity: car, predicate: ownedBy)
        let ownCarsName = editor.string("ownCars")
        let carName = editor.string("Car")
        let ownCars = editor.object(
            ["NSFetchedPropertyDescription", "NSPropertyDescription", "NSObject"],
            [
                "NSPropertyName": ownCarsName, "NSEntity": person, "NSFetchRequest": ownCarsRequest,
                "_NSFetchRequestEntityName": carName, "_P": .integer(255), "NSIsOptional": .boolean(true),
                "NSIsTransient": .boolean(true), "NSIsReadOnly": .boolean(true),
            ])
        let cars = editor.keyPath("cars")
        let count = editor.function("count:", [cars])
        let carCountName = editor.string("carCount")
        let carCount = editor.object(
            ["NSDerivedAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject"],
            [
                "NSPropertyName": carCountName, "NSEntity": person, "NSAttributeType": .integer(300),
                "NSDerivationExpression": count, "_P": .integer(247), "NSIsOptional": .boolean(true),
                "NSIsReadOnly": .boolean(true), "NSFlagsKey": .integer(0),
            ])
        try editor.addProperties(["ownCars": ownCars, "carCount": carCount], to: person)

        let model = try CompiledModel.load(archive: editor.data, file: "extras.mom")
        #expect(
            model.fetchRequestTemplates == [
                FetchRequestTemplate(name: "carsByPlate", entityName: "Car", predicateFormat: "numberPlate == $PLATE")
            ])
        #expect(model.configurations == ["Main": ["Car", "Person"]])
        let personEntity = try #require(model.entity(named: "Person"))
        #expect(
            personEntity.fetchedProperties == [
                FetchedPropertyDescription(
                    name: "ownCars", destinationEntityName: "Car", predicateFormat: "owner == $FETCH_SOURCE")
            ])
        let derived = try #require(personEntity.attribute(named: "carCount"))
        #expect(derived.derivationExpression == "cars.@count")
        #expect(derived.type == .integer64)
        #expect(derived.isOptional && !derived.isTransient)
        try model.freeze()
    }

    /// A composite attribute (type 2100) reads its elements, archived attributes themselves, from
    /// `NSCompositeElements`, and hashes as Core Data does: from its elements alone.
    @Test func compositeAttributesReadTheirElements() throws {
        var editor = try sampleArchive()
        let car = try editor.entity("Car")
        let model = try editor.property("model", of: car)
        editor.set("NSAttributeType", to: .integer(2100), of: model)
        let elementClasses = ["NSAttributeDescription", "NSPropertyDescription", "NSObject"]
        let makerName = editor.string("maker")
        let maker = editor.object(
            elementClasses,
            [
                "NSPropertyName": makerName, "NSAttributeType": .integer(700), "_P": .integer(0),
                "NSFlagsKey": .integer(0),
            ])
        let yearName = editor.string("year")
        let year = editor.object(
            elementClasses,
            [
                "NSPropertyName": yearName, "NSAttributeType": .integer(200), "_P": .integer(0),
                "NSFlagsKey": .integer(0),
            ])
        editor.set("NSCompositeElements", to: editor.array([maker, year]), of: model)
        let loaded = try CompiledModel.load(archive: editor.data, file: "composite.mom")
        let composite = try #require(loaded.entity(named: "Car")?.attribute(named: "model"))
        #expect(composite.type == .composite)
        #expect(composite.elements.map(\.name) == ["maker", "year"])
        #expect(composite.elements.map(\.type) == [.string, .integer32])
        try loaded.freeze()
        #expect(loaded.schema.entitiesByName["Car"]?.attributesByName["model.year"]?.type == .integer32)
    }
}
