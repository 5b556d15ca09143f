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
