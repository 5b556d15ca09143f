import Foundation
import Testing

@testable import Strata

@Suite struct AtomicNodeTableTests {
    private static let namespaces = ObjectID.Namespace.namespaces(
        storeIdentifier: "S", entityNames: ["Note", "Author"])

    private static func node(_ entity: Int, _ reference: Int64, _ text: String = "") -> StoreNode {
        StoreNode(
            snapshot: Snapshot(
                objectID: ObjectID(namespaces[entity], reference: .integer(reference)), values: ["text": .string(text)],
                version: 1))
    }

    private static func references(_ nodes: [StoreNode]) -> [String] {
        nodes.map { "\($0.snapshot.objectID.entityName)\($0.snapshot.objectID.reference)" }
    }

    @Test func nodesAreListedByEntityNameThenReferenceWhateverOrderTheyCameIn() {
        let table = AtomicNodeTable([Self.node(0, 3), Self.node(1, 2), Self.node(0, 1), Self.node(0, 2)])
        #expect(
            Self.references(table.allNodes)
                == ["Authorinteger(2)", "Noteinteger(1)", "Noteinteger(2)", "Noteinteger(3)"])
        #expect(Self.references(table.nodes(ofEntities: ["Note"])).count == 3)
        #expect(table.count(ofEntities: ["Note", "Author"]) == 4)
        #expect(table.count(ofEntities: ["Nothing"]) == 0)
    }

    @Test func ofTwoNodesWithOneIDTheLaterIsKept() {
        let table = AtomicNodeTable([Self.node(0, 1, "first"), Self.node(0, 1, "second")])
        #expect(table.allNodes.map { $0.snapshot.values["text"] } == ["second"])
    }

    @Test func changesReplaceAddAndRemoveNodesAndKeepTheOrder() {
        var table = AtomicNodeTable((1...6).map { Self.node(0, Int64($0)) })
        table.apply(
            inserted: [Self.node(0, 8), Self.node(0, 7)], updated: [Self.node(0, 2, "changed")],
            deleted: [1, 3, 4, 5].map { Self.node(0, $0).snapshot.objectID })
        #expect(
            Self.references(table.allNodes)
                == ["Noteinteger(2)", "Noteinteger(6)", "Noteinteger(7)", "Noteinteger(8)"])
        #expect(table[Self.node(0, 2).snapshot.objectID]?.snapshot.values["text"] == "changed")
        #expect(table[Self.node(0, 3).snapshot.objectID] == nil)
        #expect(table[Self.node(0, 7).snapshot.objectID] != nil)
        #expect(table.count(ofEntities: ["Note"]) == 4)
    }

    @Test func nodesAreFoundAfterTheirSectionIsCompacted() {
        var table = AtomicNodeTable((1...10).map { Self.node(0, Int64($0), "\($0)") })
        table.apply(inserted: [], updated: [], deleted: (1...7).map { Self.node(0, Int64($0)).snapshot.objectID })
        table.apply(inserted: [Self.node(0, 11, "11")], updated: [], deleted: [])
        for reference in [8, 9, 10, 11] {
            #expect(
                table[Self.node(0, Int64(reference)).snapshot.objectID]?.snapshot.values["text"]
                    == .string("\(reference)"))
        }
        #expect(Self.references(table.allNodes).count == 4)
    }
}
