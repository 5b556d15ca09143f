import Foundation
import Strata
import Testing

@testable import StrataXcodeModel

/// ``KeyedArchive`` reads the compiled models, compiled mapping models and archived
/// expressions in the fixtures, decodes the archived forms of plain values, and names the file,
/// object and key of every problem.
@Suite struct KeyedArchiveTests {
    private static let fixtures = "alemar11-CoreDataPlus/Tests/Resources/SampleModel/Fixtures/"

    private func fixture(_ relativePath: String) throws -> KeyedArchive {
        let url = FixturePaths.url(relativePath)
        return try KeyedArchive(data: Data(contentsOf: url), file: url.path)
    }

    /// The base64 `binary` attributes of the Xcode mapping model file `relativePath`
    /// (`xcmapping.xml`), with their names: archived expressions and models.
    private func archivedAttributes(in relativePath: String) throws -> [(name: String, data: Data)] {
        let text = try String(contentsOf: FixturePaths.url(relativePath), encoding: .utf8)
        let chunks = text.components(separatedBy: "\" type=\"binary\">")
        var result: [(name: String, data: Data)] = []
        for (before, after) in zip(chunks, chunks.dropFirst()) {
            let nameStart = try #require(before.range(of: "name=\"", options: .backwards))
            let encoded = String(after.prefix { $0 != "<" })
            let data = try #require(Data(base64Encoded: encoded, options: .ignoreUnknownCharacters))
            result.append((String(before[nameStart.upperBound...]), data))
        }
        return result
    }

    /// The archived object `reference` refers to.
    private func object(_ reference: PropertyListValue?, in archive: KeyedArchive) throws -> KeyedArchive.Object {
        let value = try #require(reference)
        return try #require(try archive.object(value))
    }

    // MARK: - Fixtures

    @Test func compiledModel() throws {
        let archive = try fixture(Self.fixtures + "SampleModel.momd/SampleModel.mom")
        #expect(archive.objects.count == 69)
        let model = try archive.topObject()
        #expect(model.className == "NSManagedObjectModel")
        #expect(model.classHierarchy == ["NSManagedObjectModel", "NSObject"])
        #expect(try model.value("NSFetchRequestTemplates") == nil)

        let entities = try #require(try model.dictionary("NSEntities"))
        #expect(Set(entities.keys) == ["Car", "Person", "SportCar", "ExpensiveSportCar"])
        let car = try object(entities["Car"], in: archive)
        #expect(car.className == "NSEntityDescription")
        #expect(try car.string("NSEntityName") == "Car")
        #expect(try car.string("NSClassNameForEntity") == "Car")
        #expect(try car.object("NSSuperentity")?.index == nil)
        #expect(try car.object("NSManagedObjectModel")?.index == model.index)
        #expect(try car.dictionary("NSUserInfo") == [:])

        let properties = try #require(try car.dictionary("NSProperties"))
        #expect(properties.count == 7)
        let color = try object(properties["color"], in: archive)
        #expect(color.className == "NSAttributeDescription")
        #expect(color.isKind(of: "NSPropertyDescription"))
        #expect(!color.isKind(of: "NSRelationshipDescription"))
        #expect(try color.string("NSPropertyName") == "color")
        #expect(try color.integer("NSAttributeType") == 1800)
        #expect(try color.string("NSValueTransformerName") == "ColorTransformer")
        #expect(try color.string("NSAttributeValueClassName") == nil)
        #expect(try color.boolean("NSIsOptional") == true)
        #expect(try color.object("NSEntity")?.index == car.index)

        let owner = try object(properties["owner"], in: archive)
        #expect(owner.className == "NSRelationshipDescription")
        #expect(try owner.object("NSDestinationEntity")?.string("NSEntityName") == "Person")
        #expect(try owner.integer("NSMaxCount") == 1)
        #expect(try owner.integer("NSDeleteRule") == 1)

        let sportCar = try object(entities["SportCar"], in: archive)
        #expect(try sportCar.object("NSSuperentity")?.string("NSEntityName") == "Car")
        let expensive = try object(entities["ExpensiveSportCar"], in: archive)
        let isLimitedEdition = try object(try expensive.dictionary("NSProperties")?["isLimitedEdition"], in: archive)
        #expect(try isLimitedEdition.value("NSDefaultValue") == .boolean(false))
        #expect(try isLimitedEdition.boolean("NSDefaultValue") == false)

        let person = try object(entities["Person"], in: archive)
        let tuples = try #require(try person.objects("NSUniqueTuples"))
        #expect(tuples.count == 1)
        #expect(tuples.first?.className == "NSMutableArray")
        #expect(try tuples.first?.elements() == [.string("firstName"), .string("lastName")])
        #expect(try model.array("NSVersionIdentifiers") == [.string("1")])
    }

    /// The mapping model uses 2-byte offsets and references.
    @Test func compiledMappingModel() throws {
        let archive = try fixture(Self.fixtures + "V2toV3.cdm")
        let mappingModel = try archive.topObject("root")
        #expect(mappingModel.className == "NSMappingModel")
        let mappings = try #require(try mappingModel.objects("NSEntityMappings"))
        #expect(mappings.count == 5)
        let carToCar = try #require(mappings.first)
        #expect(carToCar.className == "NSEntityMapping")
        #expect(try carToCar.string("NSMappingName") == "CarToCar")
        #expect(try carToCar.string("NSSourceEntityName") == "Car")
        #expect(try carToCar.integer("NSMappingType") == 1)
        #expect(try carToCar.data("NSSourceEntityVersionHash")?.count == 32)
        #expect(try carToCar.string("NSEntityMigrationPolicyClassName") == "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        #expect(try carToCar.dictionary("NSUserInfo") == nil)

        let attributeMappings = try #require(try carToCar.objects("NSAttributeMappings"))
        #expect(attributeMappings.count == 3)
        #expect(try attributeMappings[0].string("NSDestinationPropertyName") == "markedForDeletionAsOf")
        let expression = try #require(try attributeMappings[0].object("NSValueExpression"))
        #expect(expression.className == "NSKeyPathExpression")

        let source = try #require(try carToCar.object("NSSourceExpression"))
        #expect(source.className == "NSFetchRequestExpression")
        #expect(try source.boolean("NSCountOnlyFlag") == false)
        #expect(try source.integer("NSExpressionType") == 50)

        let byName = try #require(try mappingModel.dictionary("NSEntityMappingsByName"))
        #expect(byName.count == 5)
        #expect(try object(byName["CarToCar"], in: archive).index == carToCar.index)
    }

    /// The expression `$source.color`, archived in the mapping model of
    /// wibosco-CoreDataMigration-Example.
    @Test func archivedKeyPathExpression() throws {
        let path =
            "wibosco-CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Migration/Mappings/"
            + "Migration1to2.xcmappingmodel/xcmapping.xml"
        let attributes = try archivedAttributes(in: path)
        let data = try #require(attributes.first(where: { $0.name == "valueexpressiondata" })?.data)
        let archive = try KeyedArchive(data: data, file: "Migration1to2.xcmappingmodel")

        let expression = try archive.topObject()
        #expect(expression.className == "NSKeyPathExpression")
        #expect(
            expression.classHierarchy == ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"])
        #expect(expression.isKind(of: "NSFunctionExpression"))
        #expect(try expression.integer("NSExpressionType") == 4)
        #expect(try expression.string("NSSelectorName") == "valueForKeyPath:")

        let operand = try #require(try expression.object("NSOperand"))
        #expect(operand.className == "NSVariableExpression")
        #expect(try operand.integer("NSExpressionType") == 2)
        #expect(try operand.string("NSVariable") == "source")

        let arguments = try #require(try expression.array("NSArguments"))
        #expect(arguments.count == 1)
        let keyPath = try #require(try archive.object(arguments[0]))
        #expect(keyPath.className == "NSKeyPathSpecifierExpression")
        #expect(try keyPath.integer("NSExpressionType") == 10)
        #expect(try keyPath.string("NSKeyPath") == "color")
        #expect(try expression.objects("NSArguments")?.map(\.index) == [keyPath.index])
        #expect(try expression.object("NSArguments")?.className == "NSMutableArray")
    }

    /// Every compiled model and mapping model in the fixtures, and every archive an Xcode
    /// mapping model holds, decodes, down to every field of every object.
    @Test func everyFixtureArchiveDecodes() throws {
        var archives: [KeyedArchive] = []
        for path in FixturePaths.files(where: { $0.hasSuffix(".mom") || $0.hasSuffix(".cdm") }) {
            archives.append(try fixture(path))
        }
        for path in FixturePaths.files(where: { $0 == "xcmapping.xml" }) {
            for (name, data) in try archivedAttributes(in: path) {
                archives.append(try KeyedArchive(data: data, file: path + " " + name))
            }
        }
        #expect(archives.count >= 20)
        for archive in archives {
            let root = try archive.topObject()
            #expect(root.isKind(of: "NSObject"), "\(archive.file)")
            for index in archive.objects.indices {
                guard let object = try archive.object(.uid(index)) else { continue }
                for key in object.fields.keys where key != "$class" {
                    _ = try object.plainValue(key)
                }
            }
        }
    }

    // MARK: - Archived plain values

    /// A keyed archive whose root, object 1, has a field of every kind; see ``sample``.
    private static let sampleObjects: [PropertyListValue] = [
        .string("$null"),
        .dictionary([
            "$class": .uid(2), "name": .uid(3), "inlineName": .string("plain"), "blob": .uid(5), "when": .uid(7),
            "id": .uid(9), "link": .uid(11), "count": .integer(7), "flag": .boolean(true), "flagNumber": .integer(1),
            "ratio": .real(0.5), "nothing": .uid(0), "items": .uid(13), "table": .uid(15), "keyName": .uid(16),
            "defaultValue": .uid(20), "number": .uid(19), "outOfRange": .uid(99), "badClass": .uid(21),
            "badDictionary": .uid(22), "inlineList": .array([.uid(16), .integer(2)]),
        ]),
        classDescription("Thing", "NSObject"),
        .dictionary(["$class": .uid(4), "NS.string": .string("hello")]),
        classDescription("NSMutableString", "NSString", "NSObject"),
        .dictionary(["$class": .uid(6), "NS.data": .data(Data([1, 2, 3]))]),
        classDescription("NSMutableData", "NSData", "NSObject"),
        .dictionary(["$class": .uid(8), "NS.time": .real(86_400)]),
        classDescription("NSDate", "NSObject"),
        .dictionary(["$class": .uid(10), "NS.uuidbytes": .data(Data(0..<16))]),
        classDescription("NSUUID", "NSObject"),
        .dictionary(["$class": .uid(12), "NS.base": .uid(0), "NS.relative": .uid(17)]),
        classDescription("NSURL", "NSObject"),
        .dictionary(["$class": .uid(14), "NS.objects": .array([.uid(16), .uid(3), .uid(1), .uid(0)])]),
        classDescription("NSMutableArray", "NSArray", "NSObject"),
        .dictionary([
            "$class": .uid(18), "NS.keys": .array([.uid(16), .uid(3)]), "NS.objects": .array([.uid(19), .uid(1)]),
        ]),
        .string("a"),
        .string("https://example.com/a"),
        classDescription("NSDictionary", "NSObject"),
        .integer(3),
        .boolean(false),
        .dictionary(["$class": .uid(16)]),
        .dictionary(["$class": .uid(18), "NS.keys": .array([.uid(16)]), "NS.objects": .array([])]),
    ]

    private static func classDescription(_ names: String...) -> PropertyListValue {
        .dictionary(["$classname": .string(names[0]), "$classes": .array(names.map { .string($0) })])
    }

    /// `objects` and `top` as an NSKeyedArchiver archive.
    private static func archiveData(
        _ objects: [PropertyListValue], top: [String: PropertyListValue] = ["root": .uid(1)],
        archiver: PropertyListValue = .string("NSKeyedArchiver")
    ) -> Data {
        let archive: PropertyListValue = .dictionary([
            "$version": .integer(100_000), "$archiver": archiver, "$top": .dictionary(top), "$objects": .array(objects),
        ])
        return Data(BinaryPropertyListBytes.encode(archive))
    }

    /// The archive of ``sampleObjects``.
    private func sample() throws -> KeyedArchive {
        try KeyedArchive(data: Self.archiveData(Self.sampleObjects), file: "sample.archive")
    }

    @Test func plainValuesArchivedAsObjects() throws {
        let archive = try sample()
        let root = try archive.topObject()
        #expect(root.className == "Thing")
        #expect(root.index == 1)
        #expect(try root.string("name") == "hello")
        #expect(try root.plainValue("name") == .string("hello"))
        #expect(try root.value("name")?.dictionary?["NS.string"] == .string("hello"))
        #expect(try root.string("inlineName") == "plain")
        #expect(try root.string("keyName") == "a")
        #expect(try root.data("blob") == Data([1, 2, 3]))
        #expect(try root.date("when") == Date(timeIntervalSinceReferenceDate: 86_400))
        #expect(try root.plainValue("when") == .date(Date(timeIntervalSinceReferenceDate: 86_400)))
        #expect(try root.data("id") == Data(0..<16))
        #expect(try root.string("link") == "https://example.com/a")
        #expect(try archive.plainValue(.uid(3)) == .string("hello"))
        #expect(try archive.plainValue(.uid(1)) == .uid(1))
        #expect(try archive.plainValue(.uid(0)) == nil)
        #expect(try archive.plainValue(.integer(4)) == .integer(4))
    }

    @Test func numbersAndFlags() throws {
        let root = try sample().topObject()
        #expect(try root.integer("count") == 7)
        #expect(try root.real("count") == 7)
        #expect(try root.real("ratio") == 0.5)
        #expect(try root.boolean("flag") == true)
        #expect(try root.boolean("flagNumber") == true)
        #expect(try root.integer("number") == 3)
        #expect(try root.value("defaultValue") == .boolean(false))
        #expect(try root.boolean("defaultValue") == false)
    }

    @Test func absentAndNullFieldsAreNil() throws {
        let root = try sample().topObject()
        #expect(try root.value("missing") == nil)
        #expect(try root.string("missing") == nil)
        #expect(try root.value("nothing") == nil)
        #expect(try root.string("nothing") == nil)
        #expect(try root.integer("nothing") == nil)
        #expect(try root.object("nothing")?.index == nil)
        #expect(try root.array("nothing") == nil)
        #expect(try root.dictionary("nothing") == nil)
    }

    @Test func collections() throws {
        let archive = try sample()
        let root = try archive.topObject()
        #expect(try root.array("items") == [.string("a"), .string("hello"), .uid(1), .null])
        #expect(try root.array("inlineList") == [.string("a"), .integer(2)])
        #expect(try root.dictionary("table") == ["a": .integer(3), "hello": .uid(1)])
        let table = try #require(try root.object("table"))
        #expect(try table.entries() == ["a": .integer(3), "hello": .uid(1)])
        #expect(try root.object("items")?.elements().count == 4)
    }

    @Test func resolvingReferences() throws {
        let archive = try sample()
        #expect(try archive.resolve(.uid(0)) == nil)
        #expect(try archive.resolve(.uid(16)) == .string("a"))
        #expect(try archive.resolve(.uid(19)) == .integer(3))
        #expect(try archive.resolve(.string("inline")) == .string("inline"))
        #expect(try archive.resolve(.uid(2))?.dictionary?["$classname"] == .string("Thing"))
        #expect(try archive.object(.uid(16))?.index == nil)
        #expect(try archive.object(.uid(0))?.index == nil)
        #expect(try archive.object(.string("a"))?.index == nil)
        #expect(try archive.object(.uid(3))?.className == "NSMutableString")
        #expect(try archive.object(.uid(3))?.isKind(of: "NSString") == true)
        #expect(try archive.object(at: 13).classHierarchy == ["NSMutableArray", "NSArray", "NSObject"])
    }

    // MARK: - Damaged archives

    @Test func fieldsOfTheWrongKindNameTheObjectAndKey() throws {
        let root = try sample().topObject()
        let cases: [(key: String, reason: String, read: (KeyedArchive.Object) throws -> Void)] = [
            ("count", "it is an integer, not a string", { _ = try $0.string("count") }),
            ("name", "it is 'hello', not an integer", { _ = try $0.integer("name") }),
            ("count", "it is an integer, not an object reference", { _ = try $0.object("count") }),
            ("keyName", "it refers to 'a' (object 16), not an archived object", { _ = try $0.object("keyName") }),
            ("ratio", "it is a real number, not a boolean", { _ = try $0.boolean("ratio") }),
            ("name", "it is 'hello', not data", { _ = try $0.data("name") }),
            ("count", "it is an integer, not an array or set", { _ = try $0.array("count") }),
            ("items", "an element is 'a', not an archived object", { _ = try $0.objects("items") }),
            ("items", "it is an NSMutableArray object, not a number", { _ = try $0.real("items") }),
            ("count", "it is an integer, not a dictionary", { _ = try $0.dictionary("count") }),
        ]
        for (key, reason, read) in cases {
            let error = #expect(throws: ModelError.self, "\(reason)") { try read(root) }
            #expect(error?.code == .malformedFile)
            #expect(error?.filePath == "sample.archive")
            let place = "'sample.archive', object 1 (Thing), key '\(key)'"
            #expect(error?.message == "\(place): malformed keyed archive: \(reason).")
        }
    }

    @Test func badReferencesAndClassesAreRefused() throws {
        let archive = try sample()
        let root = try archive.topObject()
        let outOfRange = #expect(throws: ModelError.self) { try root.string("outOfRange") }
        #expect(
            outOfRange?.message
                == "'sample.archive', object 1 (Thing), key 'outOfRange': malformed keyed archive: the object "
                + "reference 99 is outside '$objects', which has 23 entries.")
        let badClass = #expect(throws: ModelError.self) { try root.object("badClass") }
        #expect(badClass?.message.contains("object 21, key '$class'") == true)
        #expect(badClass?.message.contains("not a class description") == true)
        let badDictionary = #expect(throws: ModelError.self) { try root.dictionary("badDictionary") }
        #expect(badDictionary?.message.contains("1 keys but 0 values") == true)
        let notAnObject = #expect(throws: ModelError.self) { try archive.object(at: 16) }
        #expect(notAnObject?.message.contains("object 16 is a string, not an archived object") == true)
        let outside = #expect(throws: ModelError.self) { try archive.object(at: -1) }
        #expect(outside?.code == .malformedFile)
        let noTop = #expect(throws: ModelError.self) { try archive.topObject("missing") }
        #expect(noTop?.message.contains("'$top' has no key 'missing'; it has: root") == true)
    }

    @Test func whatIsNotAKeyedArchiveIsRefused() throws {
        let cases: [(data: Data, reason: String)] = [
            (Data(BinaryPropertyListBytes.encode(.array([]))), "the root of the property list is an array"),
            (Self.archiveData([], archiver: .string("NSArchiver")), "'$archiver' is 'NSArchiver'"),
            (Data(BinaryPropertyListBytes.encode(.dictionary(["$top": .dictionary([:])]))), "has no '$objects'"),
            (
                Data(BinaryPropertyListBytes.encode(.dictionary(["$objects": .array([]), "$top": .array([])]))),
                "'$top' is an array"
            ),
            (Data("bplist00".utf8), "byte offset"),
        ]
        for (data, reason) in cases {
            let error = #expect(throws: ModelError.self) { try KeyedArchive(data: data, file: "other.plist") }
            #expect(error?.code == .malformedFile)
            #expect(error?.message.hasPrefix("'other.plist'") == true)
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        }
        let archive = try KeyedArchive(data: Self.archiveData([.string("$null")], top: [:]), file: "empty.plist")
        #expect(archive.objects == [.string("$null")])
        #expect(throws: ModelError.self) { try archive.topObject() }
    }
}
