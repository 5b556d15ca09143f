import Foundation
@_spi(StoreAuthoring) import Strata
import Testing

@Suite struct BinaryCodecTests {
    @Test(arguments: BinaryCodecFixtures.values.indices)
    func valueRoundTripsBitForBit(_ index: Int) throws {
        let value = BinaryCodecFixtures.values[index]
        let bytes = BinaryRecord.encode(value: value)
        let back = try BinaryRecord.decodeValue(bytes, source: "value \(index)")
        #expect(BinaryCodecFixtures.identical(value, back), "\(value) came back as \(back)")
    }

    @Test func nodeRoundTrips() throws {
        let node = BinaryCodecFixtures.node
        let back = try BinaryRecord.decodeNode(BinaryRecord.encode(node: node), source: "the node")
        #expect(BinaryCodecFixtures.identical(node, back))
    }

    @Test func nodeRoundTripsThroughTables() throws {
        let node = BinaryCodecFixtures.node
        let context = BinaryCodingContext(
            homeStoreIdentifier: BinaryCodecFixtures.store, entityNames: ["Team", "Person"],
            propertyNames: ["friends", "v3", "v7"])
        let bytes = BinaryRecord.encode(node: node, context: context)
        let back = try BinaryRecord.decodeNode(bytes, source: "the node", context: context)
        #expect(BinaryCodecFixtures.identical(node, back))
        #expect(bytes.count < BinaryRecord.encode(node: node).count)
    }

    @Test func snapshotsReadBySlotWhenTheirNamesAreTheEntitysAndByNameOtherwise() throws {
        let model = ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32)
            }
        }
        try model.freeze()
        let book = try #require(model.schema.entitiesByName["Book"])
        let id = ObjectID(storeIdentifier: BinaryCodecFixtures.store, entityName: "Book", reference: .integer(4))
        let bySlot = Snapshot(
            objectID: id, values: PropertyValues(entity: book, slots: ["Dune", .integer32(412)]), version: 3)
        let bytes = BinaryRecord.encode { $0.write(snapshot: bySlot) }
        #expect(
            bytes
                == BinaryRecord.encode {
                    $0.write(snapshot: Snapshot(objectID: id, values: bySlot.values.dictionary, version: 3))
                })
        let read = try BinaryRecord.decode(bytes, source: "book") { try $0.readSnapshot("the book", slotsOf: book) }
        #expect(read == bySlot && read.values.slots(for: book) == ["Dune", .integer32(412)])

        let other = Snapshot(objectID: id, values: ["title": "Dune", "subtitle": "none"], version: 1)
        let otherBytes = BinaryRecord.encode { $0.write(snapshot: other) }
        let byName = try BinaryRecord.decode(otherBytes, source: "book") {
            try $0.readSnapshot("the book", slotsOf: book)
        }
        #expect(byName == other && byName.values.slots(for: book) == nil)
    }

    @Test func metadataRoundTrips() throws {
        let metadata = StoreMetadata(
            storeType: "Binary", storeIdentifier: BinaryCodecFixtures.store,
            versionHashes: ["Person": Array(0..<32), "Team": Array(repeating: 9, count: 32)],
            versionIdentifiers: ["2", "1"], versionHashesVersion: 3, frameworkVersion: "0.1.0",
            modelJSON: Data("{}".utf8), userInfo: ["owner": "Ada", "when": .date(Date(timeIntervalSince1970: 1))])
        let bytes = BinaryRecord.encode { $0.write(metadata: metadata) }
        #expect(try BinaryRecord.decode(bytes, source: "metadata") { try $0.readMetadata() } == metadata)
        var withoutJSON = metadata
        withoutJSON.modelJSON = nil
        let other = BinaryRecord.encode { $0.write(metadata: withoutJSON) }
        #expect(try BinaryRecord.decode(other, source: "metadata") { try $0.readMetadata() } == withoutJSON)
    }

    @Test func integersUseFewBytes() {
        var writer = BinaryWriter()
        writer.write(signed: 0)
        writer.write(signed: -1)
        writer.write(signed: 63)
        writer.write(signed: -64)
        #expect(writer.bytes == [0, 1, 126, 127])
        writer.write(signed: .min)
        #expect(writer.bytes.count == 4 + 10)
    }

    @Test func theExamplesOfTheFormatDocumentAreRight() {
        func bytes(_ write: (inout BinaryWriter) -> Void) -> [UInt8] {
            var writer = BinaryWriter(
                context: BinaryCodingContext(homeStoreIdentifier: BinaryCodecFixtures.store, entityNames: ["Person"]))
            write(&writer)
            return writer.bytes
        }
        #expect(bytes { $0.write(value: .integer16(-3)) } == [0x01, 0x05])
        #expect(bytes { $0.write(value: "Ada") } == [0x07, 0x03, 0x41, 0x64, 0x61])
        #expect(bytes { $0.write(value: true) } == [0x09])
        #expect(bytes { $0.write(value: .double(-0.0)) } == [0x05, 0, 0, 0, 0, 0, 0, 0, 0x80])
        let id = ObjectID(storeIdentifier: BinaryCodecFixtures.store, entityName: "Person", reference: .integer(7))
        #expect(bytes { $0.write(objectID: id) } == [0x15, 0x00, 0x0E])
        #expect(bytes { $0.write(decimal: Decimal(string: "1.5")!) } == [0x01, 0x00, 0x01, 0x0F])
    }

    @Test func everyEncodingIsDeterministic() {
        let node = BinaryCodecFixtures.node
        #expect(BinaryRecord.encode(node: node) == BinaryRecord.encode(node: node))
    }
}
