import Foundation
import Strata

/// A: creating, reopening and destroying stores, and their metadata: type, UUID, version
/// hashes and the application's keys, live, after reopening and without opening.
enum LifecycleChecks {
    static var all: [ConformanceCheck] {
        [
            createsAtMissingURL, zeroLengthFileIsNewStore, metadataNamesTypeAndUUID, metadataHoldsVersionHashes,
            uuidStableAcrossReopen, userKeysLive, userKeysAfterReopen, userKeysSurviveObjectSaves, copyKeepsIdentifier,
            userKeysWithoutOpening,
            metadataOfMissingFileIsNil, incompatibleModelRefused, destroyRemovesTheStore, secondWriterRefused,
            replacedFileNoticed, onlyDocumentedFiles, filesKeepTheUmask,
        ]
    }

    private static let category = ConformanceCategory.lifecycle

    static let createsAtMissingURL = category.check(
        "createsAtMissingURL", "Adding a store at a URL with no file creates the store, and saving writes the file.",
        requires: .persistentStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        try harness.withStore { stack in
            try expectEqual(try stack.objects(ConformanceModel.sample).count, 0, "Samples in a new store")
            try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
        }
        if harness.suite.storage.isFile {
            try expect(
                FileManager.default.fileExists(atPath: url.path), "Saving a new store wrote no file at \(url.path).")
        } else {
            let metadata = try harness.makeCoordinator().metadataForStore(type: harness.suite.storeType.name, at: url)
            try expect(metadata != nil, "Saving a new store at \(url) left no store there.")
        }
    }

    static let zeroLengthFileIsNewStore = category.check(
        "zeroLengthFileIsNewStore", "A zero-length file opens as a new, empty store that can be saved.",
        requires: .fileStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        try Data().write(to: url)
        try expectAnotherSampleSaved(in: harness, finding: 0, "in a zero-length store")
    }

    static let metadataNamesTypeAndUUID = category.check(
        "metadataNamesTypeAndUUID", "A new store's metadata holds its type name and a UUID equal to its identifier."
    ) { harness in
        try harness.withStore { stack in
            let metadata = stack.store.metadata
            try expectEqual(metadata.storeType, harness.suite.storeType.name, "metadata.storeType")
            try expectEqual(metadata.storeIdentifier, stack.store.identifier, "metadata.storeIdentifier")
            try expect(
                UUID(uuidString: stack.store.identifier) != nil,
                "The store identifier '\(stack.store.identifier)' is not a UUID string.")
        }
    }

    static let metadataHoldsVersionHashes = category.check(
        "metadataHoldsVersionHashes",
        "The metadata holds the version hash of every entity of the store's configuration."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let metadata = stack.store.metadata
            for name in harness.model.entityNames(inConfiguration: ConformanceModel.graph) {
                let expected = harness.model.schema.entitiesByName[name]?.versionHash
                try expectEqual(metadata.versionHashes[name], expected, "The version hash of \(name) in the metadata")
            }
            try expect(
                harness.model.isConfiguration(ConformanceModel.graph, compatibleWithStoreMetadata: metadata),
                "The model is not compatible with the metadata of the store it just created.")
        }
    }

    static let uuidStableAcrossReopen = category.check(
        "uuidStableAcrossReopen", "The store's UUID stays the same after saving and reopening."
    ) { harness in
        let identifier: String = try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
            return stack.store.identifier
        }
        try harness.withStore { stack in
            try expectEqual(stack.store.identifier, identifier, "The identifier after reopening")
            try expectEqual(
                stack.store.metadata.storeIdentifier, identifier, "metadata.storeIdentifier after reopening")
        }
    }

    static let userKeysLive = category.check(
        "userKeysLive", "User keys set on an open store show in its metadata at once, every value type kept."
    ) { harness in
        try harness.withStore { stack in
            try stack.coordinator.setUserInfo(userInfo, for: stack.store)
            try expectEqual(stack.store.metadata.userInfo, userInfo, "metadata.userInfo")
        }
    }

    static let userKeysAfterReopen = category.check(
        "userKeysAfterReopen", "User keys saved on an open store are there after reopening, objects untouched."
    ) { harness in
        try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
            try stack.coordinator.setUserInfo(userInfo, for: stack.store)
        }
        try harness.withStore { stack in
            try expectEqual(stack.store.metadata.userInfo, userInfo, "metadata.userInfo after reopening")
            try expectEqual(try stack.objects(ConformanceModel.sample).count, 1, "Samples after a metadata-only save")
        }
    }

    static let userKeysSurviveObjectSaves = category.check(
        "userKeysSurviveObjectSaves", "User keys set before objects are saved are still there after reopening."
    ) { harness in
        try harness.withStore { stack in
            try stack.coordinator.setUserInfo(userInfo, for: stack.store)
            try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
            try stack.insert(ConformanceModel.sample, ["serial": 2])
            try stack.save()
        }
        try harness.withStore { stack in
            try expectEqual(stack.store.metadata.userInfo, userInfo, "User keys after two object saves and reopening")
        }
    }

    static let copyKeepsIdentifier = category.check(
        "copyKeepsIdentifier",
        "A store copied to a new file of its type keeps the source's identifier and user keys, also after reopening.",
        requires: .persistentStorage
    ) { harness in
        let copyURL = try require(harness.storeURL("copy"), "File storage has no store URL.")
        let identifier: String = try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
            try stack.coordinator.setUserInfo(userInfo, for: stack.store)
            let copy = try stack.coordinator.migratePersistentStore(
                stack.store, to: copyURL, type: harness.suite.storeType.name)
            try expectEqual(copy.identifier, stack.store.identifier, "The copy's identifier")
            try stack.coordinator.remove(copy)
            return stack.store.identifier
        }
        try harness.withStore("copy") { stack in
            try expectEqual(stack.store.identifier, identifier, "The copy's identifier after reopening")
            try expectEqual(stack.store.metadata.userInfo, userInfo, "The copy's user keys after reopening")
            try expectEqual(try stack.objects(ConformanceModel.sample).count, 1, "Samples in the copy")
        }
    }

    static let onlyDocumentedFiles = category.check(
        "onlyDocumentedFiles",
        "After saves and after removal the store's folder holds only its file and documented side files; after "
            + "destroying it, nothing.",
        requires: .documentedSideFiles
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        let allowed = Set(
            [url.lastPathComponent]
                + (harness.suite.documentedSideFiles ?? []).map {
                    url.lastPathComponent + $0
                })
        func expectOnlyDocumentedFiles(_ moment: String, allowing allowed: Set<String> = allowed) throws {
            let stray = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
                .filter { !allowed.contains($0) }.sorted()
            try expect(stray.isEmpty, "Beside the store, \(moment): \(stray.joined(separator: ", ")).")
        }
        let coordinator = try harness.makeCoordinator()
        let store = try harness.openStore(in: coordinator)
        let stack = CheckStack(coordinator: coordinator, store: store)
        for serial in 1...3 {
            try stack.insert(ConformanceModel.sample, ["serial": .integer64(Int64(serial))])
            try stack.save()
        }
        try coordinator.setUserInfo(userInfo, for: store)
        try expectOnlyDocumentedFiles("after three saves")
        try coordinator.remove(store)
        try expectOnlyDocumentedFiles("after removing it")
        try coordinator.destroyStore(type: harness.suite.storeType.name, at: url)
        try expectOnlyDocumentedFiles("after destroying it", allowing: [])
    }

    static let filesKeepTheUmask = category.check(
        "filesKeepTheUmask",
        "Every file the store creates has at most the permissions of a file the process creates: no execute or "
            + "world-write bits beyond the umask.",
        requires: .fileStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        let folder = url.deletingLastPathComponent()
        let reference = folder.appendingPathComponent("reference")
        try expect(FileManager.default.createFile(atPath: reference.path, contents: Data()), "No reference file.")
        let allowed = try permissions(of: reference)
        try FileManager.default.removeItem(at: reference)
        func expectAllowedPermissions(_ moment: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let mode = try permissions(of: folder.appendingPathComponent(name))
                try expect(
                    mode & ~allowed == 0,
                    "'\(name)' has permissions \(String(mode, radix: 8)) \(moment); a file the process creates has "
                        + "\(String(allowed, radix: 8)).")
            }
        }
        try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
            try expectAllowedPermissions("while the store is open")
        }
        try expectAllowedPermissions("after the store is removed")
    }

    /// The permission bits of the file at `url`.
    private static func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try require(attributes[.posixPermissions] as? Int, "No permissions for '\(url.path)'.") & 0o7777
    }

    static let userKeysWithoutOpening = category.check(
        "userKeysWithoutOpening", "User keys are read and written without opening the store, and seen when it opens.",
        requires: .persistentStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        let identifier: String = try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
            return stack.store.identifier
        }
        let coordinator = try harness.makeCoordinator()
        let type = harness.suite.storeType.name
        var metadata = try require(
            try coordinator.metadataForStore(type: type, at: url),
            "No metadata was read from the closed store at \(url.path).")
        try expectEqual(metadata.storeIdentifier, identifier, "The statically read store identifier")
        metadata.userInfo = userInfo
        try coordinator.setMetadata(metadata, forStoreOfType: type, at: url)
        try expectEqual(
            try coordinator.metadataForStore(type: type, at: url)?.userInfo, userInfo, "Statically read user keys")
        try harness.withStore { stack in
            try expectEqual(stack.store.metadata.userInfo, userInfo, "User keys after opening")
            try expectEqual(
                try stack.objects(ConformanceModel.sample).count, 1, "Samples after a static metadata write")
        }
    }

    static let metadataOfMissingFileIsNil = category.check(
        "metadataOfMissingFileIsNil", "Reading the metadata of a file that does not exist gives nil, not an error.",
        requires: .persistentStorage
    ) { harness in
        let url = try require(harness.storeURL("absent"), "File storage has no store URL.")
        let metadata = try harness.makeCoordinator().metadataForStore(type: harness.suite.storeType.name, at: url)
        try expect(metadata == nil, "A missing file at \(url.path) gave metadata.")
    }

    static let incompatibleModelRefused = category.check(
        "incompatibleModelRefused",
        "Opening a store with a model whose entity changed throws incompatibleModel naming it.",
        requires: .persistentStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
        }
        let changed = ManagedObjectModel {
            EntityDescription(ConformanceModel.sample) {
                AttributeDescription("serial", .integer64, optional: false)
                AttributeDescription("colour", .string)
            }
            ConfigurationDescription(ConformanceModel.records, entities: [ConformanceModel.sample])
        }
        let coordinator = try PersistentStoreCoordinator(
            model: changed, storeTypes: [harness.suite.storeType], valueTransformers: ConformanceModel.valueTransformers
        )
        try ErrorChecks.expectStoreError(.incompatibleModel, naming: ConformanceModel.sample) {
            _ = try coordinator.addStore(
                type: harness.suite.storeType.name, configuration: ConformanceModel.records, at: url,
                options: harness.suite.options)
        }
    }

    static let destroyRemovesTheStore = category.check(
        "destroyRemovesTheStore", "Destroying a closed store removes it: its metadata is gone and it reopens empty.",
        requires: .persistentStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
        }
        let coordinator = try harness.makeCoordinator()
        try coordinator.destroyStore(type: harness.suite.storeType.name, at: url)
        try expect(
            try coordinator.metadataForStore(type: harness.suite.storeType.name, at: url) == nil,
            "The destroyed store at \(url.path) still has metadata.")
        try harness.withStore { stack in
            try expectEqual(try stack.objects(ConformanceModel.sample).count, 0, "Samples after destroying the store")
        }
    }

    static let secondWriterRefused = category.check(
        "secondWriterRefused",
        "While a store is open for writing, a second writable opening of its file is refused with inUse naming it "
            + "(unless the store declares multiProcessAccess), read-only openings work, and removing the store frees it.",
        requires: .persistentStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        let coordinator = try harness.makeCoordinator()
        let store = try harness.openStore(in: coordinator)
        let writer = CheckStack(coordinator: coordinator, store: store)
        try writer.insert(ConformanceModel.sample, ["serial": 1])
        try writer.save()
        let second = try harness.makeCoordinator()
        if store.capabilities.contains(.multiProcessAccess) {
            try second.remove(try harness.openStore(in: second))
        } else {
            try ErrorChecks.expectStoreError(.inUse, naming: url.path) { _ = try harness.openStore(in: second) }
        }
        var readOnly = harness.suite.options
        readOnly.isReadOnly = true
        try harness.withStore(options: readOnly) { reader in
            try expectEqual(
                try reader.objects(ConformanceModel.sample).count, 1, "Samples read while another store writes")
        }
        try coordinator.remove(store)
        try expectAnotherSampleSaved(in: harness, finding: 1, "after the writer was removed")
    }

    static let replacedFileNoticed = category.check(
        "replacedFileNoticed",
        "A save of a store whose file another program replaced while it was open is refused with inUse naming the "
            + "file, and the replacement keeps exactly its own objects.",
        requires: .fileStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        let replacement = try require(harness.storeURL("replacement"), "File storage has no store URL.")
        try harness.withStore("replacement") { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 2])
            try stack.save()
        }
        let coordinator = try harness.makeCoordinator()
        let store = try harness.openStore(in: coordinator)
        let writer = CheckStack(coordinator: coordinator, store: store)
        try writer.insert(ConformanceModel.sample, ["serial": 1])
        try writer.save()
        guard rename(replacement.path, url.path) == 0 else {
            throw CheckFailure("Could not move '\(replacement.path)' over '\(url.path)': errno \(errno).")
        }
        try writer.insert(ConformanceModel.sample, ["serial": 3])
        try expectError("a StoreError with code inUse naming '\(url.path)'", writer.save) { error in
            let storeError = error as? StoreError ?? (error as? ContextError)?.underlying as? StoreError
            return storeError?.code == .inUse && storeError?.message.contains(url.path) == true
        }
        try coordinator.remove(store)
        try harness.withStore { stack in
            let serials = try stack.objects(ConformanceModel.sample).map { try stack.value($0, "serial") }
            try expectEqual(serials, [.integer64(2)], "Sample serials in the replacement after the refused save")
        }
    }

    /// Opens the store, expects `count` Samples (`moment` says when in failures), saves one more,
    /// and expects it after reopening.
    private static func expectAnotherSampleSaved(in harness: CheckHarness, finding count: Int, _ moment: String) throws
    {
        try harness.withStore { stack in
            try expectEqual(try stack.objects(ConformanceModel.sample).count, count, "Samples \(moment)")
            try stack.insert(ConformanceModel.sample, ["serial": .integer64(Int64(count + 1))])
            try stack.save()
        }
        try harness.withStore { stack in
            try expectEqual(try stack.objects(ConformanceModel.sample).count, count + 1, "Samples after reopening")
        }
    }

    /// User keys of every value type.
    private static let userInfo: [String: AttributeValue] = [
        "owner": "Ada", "revision": .integer64(7), "ratio": .double(0.25), "enabled": true,
        "stamp": .date(Date(timeIntervalSinceReferenceDate: 12.5)), "token": .binary(Data([0, 1, 254, 255])),
    ]
}
