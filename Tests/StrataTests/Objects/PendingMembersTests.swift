import Foundation
import Testing

@testable import Strata

/// Changes kept for unloaded members end as the same changes made to the loaded members would.
@Suite struct PendingMembersTests {
    let ids = (1...5).map { ObjectID(storeIdentifier: "S", entityName: "E", reference: .integer(Int64($0))) }

    @Test func removedMembersGoAndAddedOnesJoinAtTheEndInOrder() {
        var changes = PendingMembers()
        changes.remove(ids[1])
        changes.add(ids[4])
        changes.add(ids[3])
        #expect(changes.applied(to: [ids[0], ids[1], ids[2]]).elements == [ids[0], ids[2], ids[4], ids[3]])
    }

    @Test func addingAMemberAlreadyThereLeavesItInPlace() {
        var changes = PendingMembers()
        changes.add(ids[0])
        #expect(changes.applied(to: [ids[0], ids[1]]).elements == [ids[0], ids[1]])
    }

    @Test func removingThenAddingMovesAMemberToTheEnd() {
        var changes = PendingMembers()
        changes.remove(ids[0])
        changes.add(ids[0])
        #expect(changes.applied(to: [ids[0], ids[1]]).elements == [ids[1], ids[0]])
    }

    @Test func addingThenRemovingLeavesNoTrace() {
        var changes = PendingMembers()
        changes.add(ids[2])
        changes.remove(ids[2])
        #expect(changes.applied(to: [ids[0]]).elements == [ids[0]])
    }

    @Test func remappingReplacesTheIDsItNames() {
        var changes = PendingMembers()
        changes.add(ids[3])
        changes.remove(ids[0])
        let mapping = [ids[3]: ids[4], ids[0]: ids[1]]
        #expect(changes.refers(to: mapping) && !changes.refers(to: [ids[2]: ids[4]]))
        #expect(changes.remapped(mapping).applied(to: [ids[1], ids[2]]).elements == [ids[2], ids[4]])
    }
}
