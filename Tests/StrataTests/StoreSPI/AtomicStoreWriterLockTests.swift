import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A writable whole-file store locks its file through `<file>.lock`: a second writer, in this
/// process or another, gets `inUse`; readers do not lock; removing the store frees the file.
@Suite struct AtomicStoreWriterLockTests {
    let directory: TemporaryDirectory
    let url: URL
    let model: ManagedObjectModel

    init() throws {
        directory = try TemporaryDirectory()
        url = directory.file("store.json")
        model = try InMemoryStoreTests.library()
    }

    private var lockFile: String { url.path + ".lock" }

    private func coordinator() throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator(model: model, storeTypes: [.jsonFile()])
    }

    private func saveNote(_ text: String, in coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Note").setValue(.string(text), forKey: "text")
            try context.save()
        }
    }

    private func notes(in store: any IncrementalStore) throws -> Int {
        guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: "Note", resultType: .count))
        else { return -1 }
        return count
    }

    private func expectInUse(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.code == .inUse, sourceLocation: sourceLocation)
        #expect(
            error?.message.contains("'\(url.path)'") == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
    }

    @Test func aSecondWriterIsRefusedAndReadersAreNot() throws {
        let first = try coordinator()
        let store = try first.addStore(type: "JSON", at: url)
        try saveNote("one", in: first)
        #expect(FileManager.default.fileExists(atPath: lockFile))
        expectInUse { try coordinator().addStore(type: "JSON", at: url) }
        expectInUse { _ = try StoreType.jsonFile().open(StoreOpenRequest(model: model, url: url)) }
        let reader = try coordinator().addStore(type: "JSON", at: url, options: StoreOptions(isReadOnly: true))
        #expect(try notes(in: reader) == 1)
        try first.remove(store)
        #expect(!FileManager.default.fileExists(atPath: lockFile))
        let second = try coordinator()
        try second.addStore(type: "JSON", at: url)
        try saveNote("two", in: second)
    }

    @Test func metadataWritesAndReplacementsWaitForTheWriter() throws {
        let first = try coordinator()
        let store = try first.addStore(type: "JSON", at: url)
        try saveNote("one", in: first)
        let other = try coordinator()
        var metadata = try #require(try other.metadataForStore(type: "JSON", at: url))
        metadata.userInfo = ["owner": "Ada"]
        expectInUse { try other.setMetadata(metadata, forStoreOfType: "JSON", at: url) }
        let copy = directory.file("copy.json")
        try other.replaceStore(type: "JSON", at: copy, withStoreFrom: url)
        expectInUse { try other.replaceStore(type: "JSON", at: url, withStoreFrom: copy) }
        try first.remove(store)
        try other.setMetadata(metadata, forStoreOfType: "JSON", at: url)
        #expect(try other.metadataForStore(type: "JSON", at: url)?.userInfo == ["owner": "Ada"])
    }

    @Test func aStoreSharedByTwoCoordinatorsKeepsItsLockUntilBothRemoveIt() throws {
        let first = try coordinator()
        let store = try first.addStore(type: "JSON", at: url)
        let second = try coordinator()
        try second.add(store)
        try first.remove(store)
        expectInUse { try coordinator().addStore(type: "JSON", at: url) }
        try saveNote("still mine", in: second)
        try second.remove(store)
        try coordinator().addStore(type: "JSON", at: url)
    }

    @Test func aStoreAddedAgainAfterAnotherWriterSavedIsRefused() throws {
        let first = try coordinator()
        let store = try first.addStore(type: "JSON", at: url)
        try saveNote("one", in: first)
        try first.remove(store)
        let other = try coordinator()
        let otherStore = try other.addStore(type: "JSON", at: url)
        try saveNote("two", in: other)
        expectInUse { try first.add(store) }
        try other.remove(otherStore)
        let error = #expect(throws: StoreError.self) { try first.add(store) }
        #expect(error?.code == .inUse && error?.message.contains("out of date") == true)
        let untouched = try coordinator()
        try untouched.addStore(type: "JSON", at: url)
        try saveNote("three", in: untouched)
    }

    @Test func aStoreAddedAgainWithNoSaveInBetweenWorks() throws {
        let first = try coordinator()
        let store = try first.addStore(type: "JSON", at: url)
        try saveNote("one", in: first)
        try first.remove(store)
        try first.add(store)
        try saveNote("two", in: first)
        #expect(try notes(in: store) == 2)
    }

    @Test func destroyingRemovesALeftoverLockFile() throws {
        let first = try coordinator()
        let store = try first.addStore(type: "JSON", at: url)
        try saveNote("one", in: first)
        try first.remove(store)
        #expect(FileManager.default.createFile(atPath: lockFile, contents: nil))
        try first.destroyStore(type: "JSON", at: url)
        #expect(!FileManager.default.fileExists(atPath: lockFile))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aFileThatFailsToOpenLeavesNoLockFile() throws {
        try Data("not JSON".utf8).write(to: url)
        #expect(throws: StoreError.self) { try coordinator().addStore(type: "JSON", at: url) }
        #expect(!FileManager.default.fileExists(atPath: lockFile))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func anotherProcessHoldingTheLockIsRespectedBothWays() throws {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [lockFile, "sh", "-c", "echo locked; cat"]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self) == "locked\n")
        expectInUse { try coordinator().addStore(type: "JSON", at: url) }
        try input.fileHandleForWriting.close()
        _ = holder.waitForTermination()

        let first = try coordinator()
        let store = try first.addStore(type: "JSON", at: url)
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        probe.arguments = ["--nonblock", lockFile, "true"]
        try probe.run()
        #expect(probe.waitForTermination().status != 0)
        try first.remove(store)
    }
}
