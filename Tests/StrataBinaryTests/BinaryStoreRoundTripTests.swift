import Foundation
import Strata
import Testing

@testable import StrataBinary

/// What a binary store file holds comes back exactly, references and user keys included.
@Suite struct BinaryStoreRoundTripTests {
    @Test func contentsComeBackAsTheyWere() throws {
        let stack = try BinaryStoreTestStack()
        try stack.model.freeze()
        let home = UUID().uuidString
        let team = ObjectID(storeIdentifier: home, entityName: "Team", reference: .integer(1))
        let keyed = ObjectID(storeIdentifier: home, entityName: "Person", reference: .string("ada/1"))
        let elsewhere = ObjectID(storeIdentifier: "another", entityName: "Person", reference: .integer(9))
        let metadata = StoreMetadata(
            storeType: StoreType.binary.name, storeIdentifier: home, model: stack.model,
            userInfo: ["favourite": .objectID(keyed), "limit": .decimal(Decimal(string: "0.001")!), "none": .null])
        let contents = AtomicStoreContents(
            metadata: metadata,
            nodes: [
                StoreNode(
                    snapshot: Snapshot(
                        objectID: keyed,
                        values: [
                            "name": "Ada", "age": .integer32(-36), "score": .double(-0.0), "born": .null,
                            "team": .objectID(team),
                        ], version: 3)),
                StoreNode(
                    snapshot: Snapshot(objectID: team, values: ["name": "Engines"], version: 1),
                    toManyRelationships: ["members": [keyed, elsewhere, keyed]]),
            ], nextReference: 2)
        let store = BinaryStore(fileURL: stack.url)
        try store.write(contents)
        let loaded = try #require(try store.load())
        #expect(loaded.metadata == contents.metadata)
        #expect(loaded.nextReference == 2)
        #expect(Set(loaded.nodes) == Set(contents.nodes))
        let score = loaded.nodes.first { $0.snapshot.objectID == keyed }?.snapshot.values["score"]
        guard case .double(let value) = score else {
            Issue.record("The score came back as \(String(describing: score))")
            return
        }
        #expect(value.sign == .minus)
    }

    @Test func savingTwiceWritesTheSameBytes() throws {
        let stack = try BinaryStoreTestStack()
        try stack.fill(teams: 2, membersPerTeam: 3)
        let first = try Data(contentsOf: stack.url)
        let contents = try #require(try BinaryStore(fileURL: stack.url).load())
        try BinaryStore(fileURL: stack.url).write(contents)
        #expect(try Data(contentsOf: stack.url) == first)
    }

    @Test func loadingForAModelHoldsEachRecordsValuesByItsEntitysSlots() throws {
        let stack = try BinaryStoreTestStack()
        _ = try stack.fill(teams: 2, membersPerTeam: 3)
        let schema = stack.model.schema
        let store = BinaryStore(fileURL: stack.url)
        let bySlot = try #require(try store.load(slotsOf: schema))
        let byName = try #require(try store.load())
        #expect(Set(bySlot.nodes) == Set(byName.nodes))
        #expect(bySlot.nodes.count == 8)
        for node in bySlot.nodes {
            let entity = try #require(schema.entitiesByName[node.snapshot.objectID.entityName])
            #expect(node.snapshot.values.slots(for: entity) != nil)
        }
        #expect(
            byName.nodes.allSatisfy { node in
                schema.entitiesByName[node.snapshot.objectID.entityName].map {
                    node.snapshot.values.slots(for: $0) == nil
                }
                    ?? false
            })
    }
}
