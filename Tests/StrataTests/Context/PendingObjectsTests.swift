import Foundation
import Testing

@testable import Strata

/// A list of pending objects answers membership from its objects' marks and keeps them in the
/// order they joined, whatever leaves it.
@Suite struct PendingObjectsTests {
    /// `count` new tags, made outside any list the tests use.
    private func tags(_ count: Int) throws -> [ManagedObject] {
        let stack = try LibraryStack()
        return try (0..<count).map { try stack.insert("Tag", ["name": .string("t\($0)")]) }
    }

    @Test func membersKeepTheirOrderAndJoinOnce() throws {
        let objects = try tags(3)
        let list = PendingObjects(.deleted)
        #expect(list.append(objects[2]) && list.append(objects[0]) && !list.append(objects[2]))
        #expect(list.elements.map(ObjectIdentifier.init) == [objects[2], objects[0]].map(ObjectIdentifier.init))
        #expect(list.contains(objects[0]) && !list.contains(objects[1]) && list.count == 2)
        list.assertConsistent()
    }

    @Test func aLeavingMemberIsGoneFromEveryView() throws {
        let objects = try tags(3)
        let list = PendingObjects(.deleted)
        for object in objects { list.append(object) }
        let before = list.elements
        #expect(list.remove(objects[1]) && !list.remove(objects[1]))
        #expect(!list.contains(objects[1]) && list.count == 2 && !list.isEmpty)
        #expect(list.map(ObjectIdentifier.init) == [objects[0], objects[2]].map(ObjectIdentifier.init))
        #expect(before.count == 3, "A copy taken earlier does not change.")
        list.assertConsistent()
    }

    @Test func rejoiningBeforeTheStaleEntryIsDroppedCountsOnce() throws {
        let objects = try tags(2)
        let list = PendingObjects(.deleted)
        list.append(objects[0])
        list.append(objects[1])
        list.remove(objects[0])
        list.append(objects[0])
        #expect(list.count == 2 && list.elements.count == 2)
        list.assertConsistent()
    }

    @Test func manyLeavingOneByOneAreDroppedAndTheRestKeepTheirOrder() throws {
        let objects = try tags(200)
        let list = PendingObjects(.deleted)
        for object in objects { list.append(object) }
        list.subtract(objects.enumerated().filter { $0.offset % 3 != 0 }.map(\.element))
        let kept = objects.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        #expect(list.elements.map(ObjectIdentifier.init) == kept.map(ObjectIdentifier.init))
        let deletedMarks = PendingMarks.marks(of: .deleted)
        #expect(
            objects[1].pendingMarks.isDisjoint(with: [deletedMarks.member, deletedMarks.entry]),
            "A dropped entry's marks are cleared.")
        list.assertConsistent()
        list.append(objects[1])
        #expect(list.elements.last === objects[1])
    }

    @Test func listsMarkTheSameObjectIndependently() throws {
        let objects = try tags(1)
        let (deleted, changed) = (PendingObjects(.deleted), PendingObjects(.changed))
        deleted.append(objects[0])
        #expect(deleted.contains(objects[0]) && !changed.contains(objects[0]))
        changed.append(objects[0])
        deleted.removeAll()
        #expect(deleted.isEmpty && !deleted.contains(objects[0]) && changed.contains(objects[0]))
    }
}
