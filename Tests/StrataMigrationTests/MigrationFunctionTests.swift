import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// Value expressions that call functions, as Core Data's mapping models do: on the source
/// object, on the entity mapping's policy (`$entityPolicy`) and on a class the expression
/// names (`CAST("Name", "Class")`), each answered in Swift.
@Suite struct MigrationFunctionTests {
    /// What the app's `NSEntityMigrationPolicy` subclass answers: a colour number as hex.
    struct Colours: MigrationPolicy {
        func callFunction(_ selector: String, arguments: [AttributeValue]) throws -> AttributeValue {
            guard selector == "hexFromColour:", case .integer32(let colour)? = arguments.first else {
                throw MigrationError(code: .evaluationFailed, message: "Colours answers no '\(selector)'.")
            }
            return .string("#" + String(colour, radix: 16, uppercase: true))
        }
    }

    /// What Apple's MigrationV2 sample's `MigrationFunctions` class answers: a name's first word
    /// (`getFirstName:`) and the rest (`getLastName:`).
    struct NameFunctions: MigrationPolicy {
        func callFunction(_ selector: String, arguments: [AttributeValue]) throws -> AttributeValue {
            guard case .string(let name)? = arguments.first else { return .null }
            let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
            switch selector {
            case "getFirstName:": return .string(parts[0])
            case "getLastName:": return parts.count > 1 ? .string(parts[1]) : .null
            default: throw MigrationError(code: .evaluationFailed, message: "NameFunctions answers no '\(selector)'.")
            }
        }
    }

    static let version1 = ManagedObjectModel(versionIdentifiers: ["1"]) {
        EntityDescription("Person") {
            AttributeDescription("name", .string)
            AttributeDescription("colour", .integer32)
        }
    }

    static let version2 = ManagedObjectModel(versionIdentifiers: ["2"]) {
        EntityDescription("Person") {
            AttributeDescription("firstName", .string)
            AttributeDescription("lastName", .string)
            AttributeDescription("fullName", .string)
            AttributeDescription("hex", .string)
        }
    }

    static func call(_ target: FetchExpression, _ selector: String, _ arguments: FetchExpression...) -> FetchExpression
    {
        .function("FUNCTION", [target, .constant(.string(selector))] + arguments)
    }

    static let names = FetchExpression.function("CAST", [.constant("MigrationFunctions"), .constant("Class")])

    static func mapping(hex selector: String = "hexFromColour:", names: FetchExpression = names) -> MappingModel {
        MappingModel(entityMappings: [
            EntityMapping(
                name: "PersonToPerson", kind: .transform, sourceEntityName: "Person", destinationEntityName: "Person",
                attributeMappings: [
                    PropertyMapping(name: "firstName", valueExpression: call(names, "getFirstName:", .source("name"))),
                    PropertyMapping(name: "lastName", valueExpression: call(names, "getLastName:", .source("name"))),
                    PropertyMapping(
                        name: "fullName", valueExpression: call(.variable("source"), "valueForKey:", .constant("name"))),
                    PropertyMapping(
                        name: "hex",
                        valueExpression: call(.variable("entityPolicy"), selector, .source("colour"))),
                ],
                migrationPolicyName: "App.Colours")
        ])
    }

    static let policies: [String: any MigrationPolicy] = ["Colours": Colours(), "MigrationFunctions": NameFunctions()]

    static func writeVersion1(at url: URL) throws {
        let coordinator = try PersistentStoreCoordinator(model: version1, storeTypes: [.sqlite])
        let store = try coordinator.addStore(.sqlite(at: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            for (name, colour) in [("Ada Lovelace", 0xFF0000), ("Plato", 0x00FF00)] as [(String, Int32)] {
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue(.string(name), forKey: "name")
                try person.setValue(.integer32(colour), forKey: "colour")
            }
            try context.save()
        }
        try coordinator.remove(store)
    }

    @Test func functionsOnTheSourceThePolicyAndANamedClassGiveValues() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("people.sqlite")
        try Self.writeVersion1(at: url)

        try MigrationManager(sourceModel: Self.version1, destinationModel: Self.version2, policies: Self.policies)
            .migrateStore(at: url, type: .sqlite, mapping: Self.mapping())

        let people = try AppleFixtures.objects(of: "Person", in: url, model: Self.version2).sorted {
            $0["fullName", default: ""] < $1["fullName", default: ""]
        }
        #expect(
            people == [
                [
                    "entity": "Person", "firstName": "Ada", "lastName": "Lovelace", "fullName": "Ada Lovelace",
                    "hex": "#FF0000",
                ],
                ["entity": "Person", "firstName": "Plato", "lastName": "-", "fullName": "Plato", "hex": "#FF00"],
            ])
    }

    @Test func aFunctionThePolicyDoesNotAnswerFailsNamingItAndLeavesTheStore() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("people.sqlite")
        try Self.writeVersion1(at: url)
        let before = try DirectorySnapshot(directory.url)

        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: Self.version1, destinationModel: Self.version2, policies: Self.policies)
                .migrateStore(at: url, type: .sqlite, mapping: Self.mapping(hex: "rgbFromColour:"))
        }

        #expect(error?.code == .evaluationFailed)
        #expect(error?.message.contains("rgbFromColour:") == true)
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    @Test func aClassThatIsNotRegisteredFailsNamingIt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("people.sqlite")
        try Self.writeVersion1(at: url)
        let unknown = FetchExpression.function("CAST", [.constant("NoSuchFunctions"), .constant("Class")])

        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: Self.version1, destinationModel: Self.version2, policies: Self.policies)
                .migrateStore(at: url, type: .sqlite, mapping: Self.mapping(names: unknown))
        }

        #expect(error?.code == .evaluationFailed)
        #expect(error?.message.contains("'NoSuchFunctions'") == true)
        #expect(error?.propertyName == "firstName")
    }
}
