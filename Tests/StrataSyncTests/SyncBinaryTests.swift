import Foundation
import Strata
import StrataConformance
import StrataTestSupport
import Testing

@testable import StrataSync

/// Sync's binary form: operations, pushes, pull batches and merged objects come back as they
/// were written, in every form a value takes; the JSON kept before is still read; and damaged
/// bytes — cut short anywhere, or with any byte changed — are a typed error, never a trap.
@Suite struct SyncBinaryTests {
    static let replica = ReplicaID(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)

    static func stamp(_ milliseconds: Int64, _ counter: UInt32 = 0) -> SyncTimestamp {
        SyncTimestamp(milliseconds: milliseconds, counter: counter, replica: replica)
    }

    /// An operation of each change, and a value of each kind.
    static let operations: [SyncOperation] = {
        let book = GlobalID.random()
        let values: [AttributeValue] = [
            .null, .integer16(-7), .integer32(1 << 20), .integer64(.min), .decimal(Decimal(string: "10.11")!),
            .double(-0.0), .float(.infinity), .string("Dune — ünïcode"), .boolean(true), .boolean(false),
            .date(Date(timeIntervalSinceReferenceDate: 1_234.5)), .binary(Data([0, 1, 255])), .uuid(UUID()),
            .uri(URL(string: "https://example.com/a?b=c")!),
        ]
        var operations = [SyncOperation(object: book, entity: "Book", stamp: stamp(-5, 3), change: .insert)]
        for (index, value) in values.enumerated() {
            operations.append(
                SyncOperation(
                    object: book, entity: "Book", stamp: stamp(Int64(index), UInt32.max),
                    change: .set(key: "key\(index)", value: .attribute(value))))
        }
        let member = GlobalID.random()
        let changes: [SyncOperation.Change] = [
            .set(key: "author", value: .reference(.random())), .set(key: "author", value: .reference(nil)),
            .add(key: "tags", member: member), .remove(key: "tags", member: member, observed: [stamp(1), stamp(2, 9)]),
            .remove(key: "tags", member: member, observed: []),
            .place(key: "chapters", member: member, position: OrderPosition("0V")!), .delete,
        ]
        for change in changes {
            operations.append(
                SyncOperation(object: book, entity: "Book", stamp: stamp(1_796_633_692_151), change: change))
        }
        return operations
    }()

    @Test func pushesAndPullBatchesComeBackAsTheyWereWritten() throws {
        for seen in [nil, Int64(0), 42] {
            let payload = PushPayload(seen: seen, operations: Self.operations)
            let decoded = try PushPayload(data: payload.binaryData(), source: "a test")
            #expect(decoded == payload)
            #expect(decoded.binaryData() == payload.binaryData())
        }
        let batch = PullBatch(
            entries: [
                HubEntry(sequence: 1, push: SyncPush(replica: Self.replica, operations: Self.operations, seen: 7)),
                HubEntry(sequence: 9, push: SyncPush(replica: .random(), operations: Array(Self.operations.prefix(2)))),
            ], cursor: 12, isComplete: true)
        #expect(try HubWire.batch(fromBinary: HubWire.binaryData(of: batch)) == batch)
        let empty = PullBatch(entries: [], cursor: 0, isComplete: false)
        #expect(try HubWire.batch(fromBinary: HubWire.binaryData(of: empty)) == empty)
    }

    @Test func mergedObjectsComeBackAsTheyWereWritten() throws {
        let state = try ConvergenceTests.simulate(seed: 7, replicaCount: 2, steps: 300, rules: MergeRules()).hubState
        var withEverything = MergeState()
        for operation in Self.operations { try withEverything.apply(operation) }
        let objects = Array(state.objects.values) + Array(withEverything.objects.values)
        #expect(objects.contains { !$0.relationships.isEmpty } && objects.contains { $0.deletion != nil })
        for object in objects {
            let bytes = object.binaryData()
            let decoded = try MergedObject(data: bytes, source: "a test")
            #expect(decoded == object)
            // Equal values of different widths compare equal: the bytes tell them apart.
            #expect(decoded.binaryData() == bytes)
        }
    }

    /// JSON keeps a map keyed by global ID as an array of keys and values.
    @Test func aMergedObjectKeptAsJSONBeforeTheBinaryFormIsStillRead() throws {
        let member = "0B1C2D3E-0000-4000-8000-000000000002"
        let stamp = "1796633692151.0@E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let removedStamp = "1796633692152.1@E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let json = """
            {"entity": "Author", "registers": {"name": {"value": {"attribute": {"string": "Le Guin"}}, "stamp": "\(stamp)"}},
             "relationships": {"books": {"added": ["\(member)", ["\(stamp)", "\(removedStamp)"]],
                                         "removed": ["\(member)", ["\(removedStamp)"]]}},
             "lastWrite": "\(removedStamp)", "insertion": "\(stamp)"}
            """
        let object = try MergedObject(data: Data(json.utf8), source: "a record")
        let books = try #require(object.relationships["books"])
        let id = GlobalID(try #require(UUID(uuidString: member)))
        #expect(books.additions[id]?.count == 2 && books.removals[id]?.count == 1)
        #expect(books.contains(id))
        #expect(object.registers["name"]?.value == .attribute(.string("Le Guin")))
        #expect(try MergedObject(data: object.binaryData(), source: "a record") == object)
        // A store's object ID is no value, in JSON as in the binary form.
        let local = #"{"attribute": {"objectID": "x-strata://B3F1E2D4-0000-4000-8000-000000000001/Book/p7"}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SyncValue.self, from: Data(local.utf8)) }
    }

    @Test func theJSONKeptBeforeIsStillRead() throws {
        let payload = PushPayload(seen: 3, operations: Self.operations)
        #expect(try PushPayload(data: JSONEncoder().encode(payload), source: "a test") == payload)
        let unseen = PushPayload(seen: nil, operations: Self.operations)
        #expect(try PushPayload(data: JSONEncoder().encode(Self.operations), source: "a test") == unseen)
        let state = try ConvergenceTests.simulate(seed: 3, replicaCount: 2, steps: 100, rules: MergeRules()).hubState
        for object in state.objects.values {
            #expect(try MergedObject(data: JSONEncoder().encode(object), source: "a test") == object)
        }
    }

    @Test func damagedBytesAreATypedErrorNamingWhere() throws {
        let bytes = PushPayload(seen: 1, operations: Self.operations).binaryData()
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self) { try PushPayload(data: bytes.prefix(length), source: "a cut push") }
        }
        let error = #expect(throws: StoreError.self) {
            try PushPayload(data: bytes.prefix(bytes.count - 1), source: "a cut push")
        }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("a cut push") == true && error?.message.contains("byte") == true)
        // Any byte changed reads as an error or as some payload, never a trap.
        var random = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            _ = try? PushPayload(data: damaged, source: "a damaged push")
        }
        let trailing = #expect(throws: StoreError.self) {
            try PushPayload(data: bytes + [0], source: "a long push")
        }
        #expect(trailing?.message.contains("1 bytes follow") == true)
        let otherKind = #expect(throws: StoreError.self) {
            try MergedObject(data: bytes, source: "a record")
        }
        #expect(otherKind?.message.contains("kind") == true)
        let unknownVersion = #expect(throws: StoreError.self) {
            try HubWire.batch(fromBinary: Data("SY".utf8) + [9])
        }
        #expect(unknownVersion?.message.contains("version") == true)
        // A store's object ID means nothing on another replica: a value never is one.
        let storeID = try #require(ObjectID(uriString: "x-strata://B3F1E2D4-0000-4000-8000-000000000001/Book/p7"))
        let local = SyncOperation(
            object: .random(), entity: "Book", stamp: Self.stamp(1),
            change: .set(key: "twin", value: .attribute(.objectID(storeID))))
        let refused = #expect(throws: StoreError.self) {
            try PushPayload(data: PushPayload(seen: nil, operations: [local]).binaryData(), source: "a push")
        }
        #expect(refused?.message.contains("object ID") == true)
    }

    @Test func theBinaryFormIsSmallerThanJSON() throws {
        let payload = PushPayload(seen: 1, operations: Self.operations)
        #expect(payload.binaryData().count * 2 < (try JSONEncoder().encode(payload)).count)
    }
}
