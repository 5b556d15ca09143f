import Foundation
import Strata
import Testing

@testable import StrataSync

/// How a replica cuts what it collected into pushes: never inside one object's operations, and
/// within ``ReplicaState/bytesPerPush`` whenever an object boundary allows.
@Suite struct PushCuttingTests {
    @Test func aPushOverItsBytesIsCutAtAnObjectBoundaryBeforeItsMiddleWhenNoneFollowsIt() throws {
        // A cover of 3 MiB, then a book with many small writes: the only boundary lies before
        // the middle of the operations.
        let cover = GlobalID.random()
        let book = GlobalID.random()
        var operations = [
            SyncOperation(object: cover, entity: "Cover", stamp: SyncBinaryTests.stamp(1), change: .insert),
            SyncOperation(
                object: cover, entity: "Cover", stamp: SyncBinaryTests.stamp(1),
                change: .set(key: "image", value: .attribute(.binary(Data(count: 3 << 20))))),
        ]
        for index in 0..<10 {
            operations.append(
                SyncOperation(
                    object: book, entity: "Book", stamp: SyncBinaryTests.stamp(2),
                    change: .set(key: "note\(index)", value: .attribute(.string("n")))))
        }
        let payloads = ReplicaState.encodedPushes(of: operations[...], seen: 0)
        let pushes = try payloads.map { try PushPayload(data: $0, source: "a push").operations }
        #expect(pushes.map { Set($0.map(\.object)) } == [[cover], [book]])
        #expect(pushes.joined().map { $0 } == operations)
    }
}
