import Foundation
import Strata
import Testing

@testable import StrataBinary

/// A graph of 100,000 objects saves and loads in one piece, every value and member kept.
@Suite struct BinaryStoreLargeGraphTests {
    @Test func aHundredThousandObjectsSaveAndLoad() throws {
        let stack = try BinaryStoreTestStack()
        let teams = try stack.fill(teams: 1_000, membersPerTeam: 99)
        let fileSize = try #require(
            try FileManager.default.attributesOfItem(atPath: stack.url.path)[.size] as? Int)
        #expect(fileSize < 100_000 * 80, "The file takes \(fileSize) bytes for 100,000 objects")
        try stack.withStore { store in
            #expect(try BinaryStoreTestStack.count("Person", in: store) == 99_000)
            #expect(try BinaryStoreTestStack.count("Team", in: store) == 1_000)
            let team = teams[500]
            #expect(try store.snapshot(for: team)?.values["name"] == "Team 500")
            let members = try store.relatedObjectIDs(of: team, relationship: "members")
            #expect(members.count == 99)
            let member = try #require(try store.snapshot(for: members[7]))
            let serial = 500 * 99 + 7
            #expect(member.values["name"] == .string("Person \(serial)"))
            #expect(member.values["age"] == .integer32(Int32(serial % 100)))
            #expect(member.values["score"] == .double(Double(serial) / 7))
            #expect(member.values["team"] == .objectID(team))
            #expect(member.version == 1)
        }
    }
}
