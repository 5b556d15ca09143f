import Foundation
import StrataTestSupport
import Testing

@_spi(FaultInjection) @testable import Strata

/// A save across stores that a store missed is completed with the model version it was made
/// with, before automatic migration moves the store to a newer one (docs/STRIPED-SAVES.md).
@Suite struct StripedSaveMigrationTests {
    typealias Stack = StripedSaveTests.Stack

    /// The stack's model with a new attribute on notes, and the notes' text renamed: records
    /// of the first version read with it lose their text.
    static let version2: ManagedObjectModel = {
        ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("isbn", .string)
                UniquenessConstraint("isbn")
            }
            EntityDescription("Note") {
                AttributeDescription("body", .string).renamed(from: "text")
                AttributeDescription("mood", .string)
            }
            ConfigurationDescription("Shelf", entities: ["Book"])
            ConfigurationDescription("Pad", entities: ["Note"])
        }
    }()

    @Test(arguments: [false, true])
    func aMissedSaveIsCompletedWithTheStoresModelBeforeItIsMigrated(padFirst: Bool) throws {
        let folder = try TemporaryDirectory()
        do {
            let stack = try Stack(folder, pad: { StripedSaveTests.FailingPad($0) })
            let error = try #require(throws: StoreError.self) { try stack.saveBook("Dune", note: "spice") }
            #expect(error.code == .savePending)
        }
        let coordinator = try PersistentStoreCoordinator(model: Self.version2, storeTypes: [.jsonFile()])
        coordinator.migrationPlan = MigrationPlan(models: [Stack.model, Self.version2])
        let descriptions = [("Pad", "pad.json"), ("Shelf", "shelf.json")].map { configuration, file in
            PersistentStoreDescription(storeType: .jsonFile(), url: folder.file(file), configuration: configuration)
        }
        for description in padFirst ? descriptions : descriptions.reversed() {
            try coordinator.addStore(description)
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let notes = try context.fetch(FetchRequest(entityName: "Note"))
            #expect(try notes.map { try $0.value(forKey: "body") } == [.string("spice")])
            #expect(try context.fetch(FetchRequest(entityName: "Book")).count == 1)
        }
        #expect(StripedSaveTests.logSize(folder) == StripedSaveLog.headerSize)
    }
}

extension AttributeDescription {
    /// The attribute, renamed from `old` (its name in the earlier version).
    fileprivate func renamed(from old: String) -> AttributeDescription {
        var attribute = self
        attribute.renamingIdentifier = old
        return attribute
    }
}
