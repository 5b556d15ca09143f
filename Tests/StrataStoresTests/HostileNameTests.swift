import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// Input built to break out of SQL or XML quoting. Names that could (quotes, semicolons,
/// comments) are refused by model validation before any store uses them; values and `%@`
/// arguments that read as statements or markup stay data in every file store: saved, found and
/// read back after reopening, with the store's own tables untouched.
@Suite struct HostileNameTests {
    static let value = #"x'); DROP TABLE Z_METADATA; DELETE FROM ZCITY; -- "and" <b>&amp;</b> ]]>"#

    @Test func aModelWithHostileNamesIsRefusedBeforeAnyStoreSeesIt() {
        let model = ManagedObjectModel {
            EntityDescription(#"Evil"Entity');DROP_TABLE_Z_METADATA;--"#) {
                AttributeDescription(#"na"me']);DELETE_FROM_Z_PRIMARYKEY;--"#, .string)
            }
        }
        let error = #expect(throws: ModelError.self) {
            try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        }
        #expect(error?.issues.map(\.kind) == [.invalidName, .invalidName], "\(String(describing: error))")
    }

    /// Names built to break out of SQL or a file name: quotes, semicolons, comments, whitespace,
    /// control characters, a letter that joins the quote after it into one character (U+0D4E is
    /// a prepended letter), invisible and non-ASCII spaces, a leading digit, the empty name, and
    /// the statements that once ran from a fetch index's name.
    static let hostileNames = [
        #"a"b"#, "a'b", "a;b", "a--b", "a/*b*/c", "a b", "a\tb", "a\nb", "a\rb", "a\u{0}b", "a\u{7F}b",
        "\u{0D4E}\"x", "\u{0D4E};DROP", "a\u{200B}b", "名\u{3000}前", "a\u{00A0}b", "1abc", "", "a.b", "a/b", "..",
        "x ON ZITEM (ZVALUE); DROP TABLE ZITEM; --", "x;COMMIT;CREATE TABLE PWNED (x);BEGIN;--",
    ]

    /// Every kind of name a model gives that can reach SQL or a file name.
    enum NameKind: String, CaseIterable {
        case entity, attribute, relationship, compositeElement, fetchIndex, fetchIndexElement, uniquenessConstraint
        case configuration, fetchedProperty

        /// A model of one entity `Item` (with attribute `value`) giving `name` as this kind of name.
        func model(naming name: String) -> ManagedObjectModel {
            var item = EntityDescription(name: "Item", attributes: [AttributeDescription("value", .string)])
            var entities: [EntityDescription] = []
            var configurations: [String: [String]] = [:]
            switch self {
            case .entity: item.name = name
            case .attribute: item.attributes.append(AttributeDescription(name, .string))
            case .relationship: item.relationships.append(.toOne(name, destination: "Item"))
            case .compositeElement:
                item.attributes.append(.composite("address", elements: [AttributeDescription(name, .string)]))
            case .fetchIndex:
                item.fetchIndexes = [FetchIndexDescription(name: name, elements: [.init(propertyName: "value")])]
            case .fetchIndexElement:
                item.fetchIndexes = [FetchIndexDescription(name: "byValue", elements: [.init(propertyName: name)])]
            case .uniquenessConstraint: item.uniquenessConstraints = [[name]]
            case .configuration: configurations[name] = ["Item"]
            case .fetchedProperty:
                item.fetchedProperties.append(FetchedPropertyDescription(name: name, destinationEntityName: "Item"))
            }
            entities.append(item)
            return ManagedObjectModel(entities: entities, configurations: configurations)
        }
    }

    /// Each hostile name, as each kind of name, from code and from JSON: validation names it,
    /// and no store of any built-in file type is created.
    @Test(arguments: NameKind.allCases)
    func everyKindOfNameIsHeldToTheIdentifierRule(_ kind: NameKind) throws {
        let folder = try TemporaryDirectory()
        for name in Self.hostileNames {
            let model = kind.model(naming: name)
            let issues = model.validationIssues()
            #expect(
                issues.contains { $0.message.contains("'\(name)'") || $0.message.contains(".\(name)'") }
                    || (name.isEmpty && !issues.isEmpty),
                "\(kind) \(name.debugDescription): \(issues.map(\.message))")
            let fromJSON = Result { try ManagedObjectModel(jsonData: model.jsonData()) }
            if case .success(let loaded) = fromJSON {
                #expect(!loaded.validationIssues().isEmpty, "\(kind) \(name.debugDescription) from JSON")
            }
            for type in ["SQLite", "LMDB", "XML", "Binary"] {
                let url = folder.file("store-\(type)")
                #expect(throws: (any Error).self, "\(kind) \(name.debugDescription) in \(type)") {
                    let coordinator = try PersistentStoreCoordinator(
                        model: kind.model(naming: name), storeTypes: StoreType.builtInFileTypes)
                    try coordinator.addStore(type: type, at: url)
                }
                #expect(!FileManager.default.fileExists(atPath: url.path), "\(kind) \(name.debugDescription)")
            }
        }
    }

    /// The rule admits letters of every script, with their combining marks: such names are kept,
    /// saved and read back.
    @Test func lettersOfEveryScriptAreIdentifiers() throws {
        let folder = try TemporaryDirectory()
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Café",
                attributes: [AttributeDescription("名前", .string), AttributeDescription("e\u{301}t_2", .string)],
                fetchIndexes: [FetchIndexDescription(name: "par_nom", elements: [.init(propertyName: "名前")])])
        ])
        #expect(model.validationIssues().isEmpty)
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        try coordinator.addStore(type: "SQLite", at: folder.file("store.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let cafe = try context.insertNewObject(forEntityName: "Café")
            try cafe.setValue("ok", forKey: "名前")
            try context.save()
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Café")) == 1)
        }
    }

    @Test(arguments: ["SQLite", "LMDB", "XML", "Binary"])
    func valuesThatReadAsStatementsStayData(type: String) throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("store.\(type.lowercased())")
        do {
            let coordinator = try PersistentStoreCoordinator(
                model: ContainerModel.make(), storeTypes: StoreType.builtInFileTypes)
            try coordinator.addStore(type: type, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.performAndWait {
                for (population, name) in [(1, Self.value), (2, "plain")] {
                    let city = try context.insertNewObject(forEntityName: "City")
                    try city.setValue(.string(name), forKey: "name")
                    try city.setValue(.integer64(Int64(population)), forKey: "population")
                }
                try context.save()
            }
        }
        let reopened = try PersistentStoreCoordinator(
            model: ContainerModel.make(), storeTypes: StoreType.builtInFileTypes)
        try reopened.addStore(type: type, at: url)
        let reader = ManagedObjectContext(coordinator: reopened)
        try reader.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "City")
            #expect(try reader.count(for: request) == 2)
            for format in ["%K == %@", "%K BEGINSWITH %@", "%K LIKE %@", "%K IN {%@, 'plain'}"] {
                request.predicate = try FetchPredicate(
                    format: format, AttributeValue.string("name"), AttributeValue.string(Self.value))
                let found = try reader.fetch(request)
                #expect(found.count == (format.hasPrefix("%K IN") ? 2 : 1), "\(format)")
                #expect(try found.map { try $0.value(forKey: "name") }.contains(.string(Self.value)), "\(format)")
            }
        }
        #expect(try reopened.metadataForStore(type: type, at: url)?.versionHashes.keys.contains("City") == true)
    }

    /// A `%K` argument built to break out of quoting is not a key path: the predicate is
    /// refused when it is made, naming the argument, before any store could see it.
    @Test func aHostileKeyPathIsRefusedWhenThePredicateIsMade() {
        let key = #"name" = 'x' OR 1=1; DELETE FROM ZCITY; --"#
        let error = #expect(throws: FetchPredicateError.self) {
            try FetchPredicate(format: "%K == %@", AttributeValue.string(key), AttributeValue.string("plain"))
        }
        #expect("\(String(describing: error))".contains("DELETE FROM ZCITY"), "\(String(describing: error))")
    }
}
