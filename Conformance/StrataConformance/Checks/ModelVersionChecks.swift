import Foundation
import Strata

/// O (model versions): a store written with one model version is migrated into a new store
/// of its own type written with the next, by an inferred mapping, keeping every value the
/// mapping carries; a migration that fails leaves the source file as it was.
enum ModelVersionChecks {
    static var all: [ConformanceCheck] {
        [attributesAddedRemovedRenamedAndWidened, entityAdded, toOneBecomesToMany, failedMigrationLeavesTheSource]
    }

    private static let category = ConformanceCategory.migration

    static let attributesAddedRemovedRenamedAndWidened = category.check(
        "modelVersion.attributes",
        "An attribute added (with its default), removed, renamed and widened migrates with its values.",
        requires: .persistentStorage
    ) { harness in
        let version2 = model(
            2,
            note: EntityDescription("Note") {
                AttributeDescription("heading", .string, optional: false).renamed(from: "title")
                AttributeDescription("words", .integer64)
                AttributeDescription("pinned", .boolean, optional: false, default: false)
                RelationshipDescription.toOne("tag", destination: "Tag", inverse: "notes")
            })
        let lines = try migrate(harness, to: version2) { note in
            "\(try note.value(forKey: "heading")) \(try note.value(forKey: "words")) "
                + "\(try note.value(forKey: "pinned")) tag \(try note.value(forKeyPath: "tag.name"))"
        }
        try expectEqual(
            lines,
            [
                "string(\"Ideas\") integer64(12) boolean(false) tag string(\"work\")",
                "string(\"List\") null boolean(false) tag null",
            ], "The migrated notes")
    }

    static let entityAdded = category.check(
        "modelVersion.entityAdded", "An entity added in the new version starts empty; the others keep their objects.",
        requires: .persistentStorage
    ) { harness in
        let version2 = model(2, extra: [EntityDescription("Folder") { AttributeDescription("name", .string) }])
        let lines = try migrate(harness, to: version2, counting: "Folder") { note in
            "\(try note.value(forKey: "title")) \(try note.value(forKey: "words")) tag \(try note.value(forKeyPath: "tag.name"))"
        }
        try expectEqual(
            lines,
            [
                "Folder 0", "string(\"Ideas\") integer16(12) tag string(\"work\")",
                "string(\"List\") null tag null",
            ], "The migrated notes and folders")
    }

    static let toOneBecomesToMany = category.check(
        "modelVersion.toOneBecomesToMany",
        "A to-one relationship renamed and made to-many holds the object it held; its inverse follows.",
        requires: .persistentStorage
    ) { harness in
        let version2 = model(
            2, tagInverse: "tags",
            note: EntityDescription("Note") {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("words", .integer16)
                AttributeDescription("draft", .boolean)
                RelationshipDescription.toMany("tags", destination: "Tag", inverse: "notes").renamed(from: "tag")
            })
        let lines = try migrate(harness, to: version2, counting: "Tag") { note in
            let tags = try note.objects(forKey: "tags").map { "\(try $0.value(forKey: "name"))" }
            return "\(try note.value(forKey: "title")) tags \(tags)"
        }
        try expectEqual(
            lines, ["Tag 1", "string(\"Ideas\") tags [\"string(\\\"work\\\")\"]", "string(\"List\") tags []"],
            "The migrated notes and their tags")
    }

    static let failedMigrationLeavesTheSource = category.check(
        "modelVersion.failureLeavesTheSource",
        "A migration that fails (a new non-optional attribute without a default) leaves the source file as it was "
            + "and no destination.",
        requires: .fileStorage
    ) { harness in
        var note = noteVersion1
        note.attributes.append(AttributeDescription("shelf", .string, optional: false))
        let version2 = model(2, note: note)
        let source = try require(harness.storeURL("notes"), "File storage has no store URL.")
        try writeVersion1(harness, at: source)
        let before = try FileSnapshot(of: source, in: harness.directory)
        let destination = try require(harness.storeURL("migrated"), "File storage has no store URL.")
        do {
            try MigrationManager(sourceModel: model(1), destinationModel: version2).migrateStore(
                from: source, type: harness.suite.storeType, to: destination, type: harness.suite.storeType,
                mapping: try .inferred(from: model(1), to: version2))
            throw CheckFailure("The migration saved a note without the non-optional 'shelf'.")
        } catch let error as MigrationError {
            try expectEqual(error.code, .invalidValue, "The migration error's code")
        }
        try before.expectUnchanged("the source of a failed migration")
    }

    /// Version 1's `Note`.
    private static let noteVersion1 = EntityDescription("Note") {
        AttributeDescription("title", .string, optional: false)
        AttributeDescription("words", .integer16)
        AttributeDescription("draft", .boolean)
        RelationshipDescription.toOne("tag", destination: "Tag", inverse: "notes")
    }

    /// Version `number` of the notes model: `note`, `Tag` with a to-many `notes` whose inverse
    /// is `tagInverse`, and `extra` entities.
    private static func model(
        _ number: Int, tagInverse: String = "tag", extra: [EntityDescription] = [],
        note: EntityDescription = noteVersion1
    ) -> ManagedObjectModel {
        let tag = EntityDescription("Tag") {
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("notes", destination: "Note", inverse: tagInverse)
        }
        return ManagedObjectModel(entities: [note, tag] + extra, versionIdentifiers: ["\(number)"])
    }

    /// Writes two notes, one tagged, with version 1 into a store of the type under test at `url`.
    private static func writeVersion1(_ harness: CheckHarness, at url: URL) throws {
        let coordinator = try PersistentStoreCoordinator(
            model: model(1), storeTypes: [harness.suite.storeType])
        let store = try coordinator.addStore(
            type: harness.suite.storeType.name, at: url, options: harness.suite.options)
        let stack = CheckStack(coordinator: coordinator, store: store)
        let work = try stack.insert("Tag", ["name": "work"])
        let ideas = try stack.insert("Note", ["title": "Ideas", "words": .integer16(12), "draft": true])
        _ = try stack.insert("Note", ["title": "List"])
        try stack.run { try ideas.setObject(work, forKey: "tag") }
        try stack.save()
        try coordinator.remove(store)
    }

    /// Writes version 1, migrates it into a new store with `version2` and returns one line per
    /// note (from `describe`), sorted, after a count of the entity `counting`.
    private static func migrate(
        _ harness: CheckHarness, to version2: ManagedObjectModel, counting: String? = nil,
        describe: (ManagedObject) throws -> String
    ) throws -> [String] {
        let source = try require(harness.storeURL("notes"), "File storage has no store URL.")
        try writeVersion1(harness, at: source)
        let destination = try require(harness.storeURL("migrated"), "File storage has no store URL.")
        let type = harness.suite.storeType
        try MigrationManager(sourceModel: model(1), destinationModel: version2).migrateStore(
            from: source, type: type, to: destination, type: type, mapping: try .inferred(from: model(1), to: version2))
        let coordinator = try PersistentStoreCoordinator(
            model: version2, storeTypes: [type], valueTransformers: ConformanceModel.valueTransformers)
        var description = PersistentStoreDescription(storeType: type, url: destination)
        description.settings = harness.suite.options.settings
        description.shouldMigrateStoreAutomatically = false
        let store = try coordinator.addStore(description)
        defer { try? coordinator.remove(store) }
        let stack = CheckStack(coordinator: coordinator, store: store)
        return try stack.run {
            var lines = try stack.context.fetch(FetchRequest<ManagedObject>(entityName: "Note")).map(describe).sorted()
            if let counting {
                let count = try stack.context.count(for: FetchRequest<ManagedObject>(entityName: counting))
                lines.insert("\(counting) \(count)", at: 0)
            }
            return lines
        }
    }
}
