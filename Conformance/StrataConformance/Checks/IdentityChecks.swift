import Foundation
import Strata

/// B: object IDs are temporary until saved, then permanent, never reused, unique across an
/// inheritance tree, and their URIs lead back to the object after reopening.
enum IdentityChecks {
    static var all: [ConformanceCheck] {
        [
            temporaryUntilSaved, permanentIDsInInputOrder, deletedReferencesAreNotReused,
            idsOfAnotherOpeningAreNotReused, idsNeverHandedOutAreKept, referencesUniqueAcrossHierarchy,
            uriRoundTripAfterReopen,
            foreignAndMalformedURIs, deletedSnapshotIsNil,
        ]
    }

    private static let category = ConformanceCategory.identity

    static let temporaryUntilSaved = category.check(
        "temporaryUntilSaved", "An inserted object's ID is temporary until the save, then permanent and in this store."
    ) { harness in
        try harness.withStore { stack in
            let object = try stack.insert(ConformanceModel.sample, ["serial": 1])
            try expect(object.objectID.isTemporary, "A new object's ID \(object.objectID) is not temporary.")
            try stack.save()
            try expect(!object.objectID.isTemporary, "The saved object's ID \(object.objectID) is still temporary.")
            try expectEqual(object.objectID.storeIdentifier, stack.store.identifier, "The saved ID's store")
        }
    }

    static let permanentIDsInInputOrder = category.check(
        "permanentIDsInInputOrder", "permanentIDs(forEntities:) hands out distinct IDs, one per name, in input order."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let names = ["Person", "Team", "Person", "Square", "Circle", "Person"]
            let ids = try stack.store.permanentIDs(forEntities: names)
            try expectEqual(ids.map(\.entityName), names, "The entities of the handed-out IDs")
            try expectEqual(Set(ids).count, names.count, "The number of distinct handed-out IDs")
            try expect(
                ids.allSatisfy { !$0.isTemporary && $0.storeIdentifier == stack.store.identifier },
                "Handed-out IDs must be permanent and name store \(stack.store.identifier): \(ids).")
        }
    }

    static let deletedReferencesAreNotReused = category.check(
        "deletedReferencesAreNotReused", "A deleted object's reference is never handed out again, also after reopening."
    ) { harness in
        let deleted: ObjectID = try harness.withStore { stack in
            let object = try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
            try stack.run { try stack.context.delete(object) }
            try stack.save()
            let fresh = try stack.store.permanentIDs(forEntities: [ConformanceModel.sample])
            try expect(
                !fresh.contains(object.objectID), "The deleted object's ID \(object.objectID) was handed out again.")
            return object.objectID
        }
        try harness.withStore { stack in
            let fresh = try stack.store.permanentIDs(forEntities: Array(repeating: ConformanceModel.sample, count: 3))
            try expect(
                !fresh.contains(deleted), "After reopening, the deleted object's ID \(deleted) was handed out again.")
        }
    }

    /// A coordinator completing a save from its save log (docs/STRIPED-SAVES.md) inserts
    /// objects with IDs an opening before a crash handed out: the store must not hand them out
    /// again, though it never handed them out itself.
    static let idsOfAnotherOpeningAreNotReused = category.check(
        "idsOfAnotherOpeningAreNotReused",
        "IDs one opening handed out and another saved are never handed out again, also after reopening."
    ) { harness in
        let handedOut: [ObjectID] = try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 100])
            try stack.save()
            return try stack.store.permanentIDs(forEntities: Array(repeating: ConformanceModel.sample, count: 3))
        }
        try harness.withStore { stack in
            try insertSamples(handedOut, into: stack)
            try expectNotHandedOut(handedOut, by: stack, "IDs saved from an earlier opening were handed out again")
        }
        try harness.withStore { stack in
            try expectNotHandedOut(
                handedOut, by: stack, "After reopening, IDs saved from an earlier opening were handed out again")
        }
    }

    /// A migration copying a store keeps its objects' numbers (docs/CROSS-STORE-RELATIONSHIPS.md):
    /// the new store saves inserts whose IDs it never handed out, far past its own.
    static let idsNeverHandedOutAreKept = category.check(
        "idsNeverHandedOutAreKept",
        "Objects inserted with IDs the store never handed out keep them, and the store never hands them out, also "
            + "after reopening."
    ) { harness in
        let kept: [ObjectID] = try harness.withStore { stack in
            let handedOut = try stack.store.permanentIDs(forEntities: [ConformanceModel.sample])
            let references: [ObjectID.Reference]
            switch handedOut.first?.reference {
            case .integer(let number)?: references = [1_000, 2, 70_000].map { .integer(number + $0) }
            case .string(let key)?: references = ["-kept-1", "-kept-2", "-kept-3"].map { .string(key + $0) }
            default: throw CheckFailure("permanentIDs handed out \(handedOut) for one object.")
            }
            let ids = references.map {
                ObjectID(storeIdentifier: stack.store.identifier, entityName: ConformanceModel.sample, reference: $0)
            }
            try insertSamples(ids, into: stack)
            try expectNotHandedOut(ids, by: stack, "IDs inserted from outside were handed out")
            return ids
        }
        try harness.withStore { stack in
            let saved = try stack.objects(ConformanceModel.sample).map(\.objectID)
            try expectEqual(Set(saved), Set(kept), "The IDs of the objects inserted with IDs of their own, reopened")
            try expectNotHandedOut(kept, by: stack, "After reopening, IDs inserted from outside were handed out")
        }
    }

    /// Saves a sample object under each of `ids`, numbered by its place.
    private static func insertSamples(_ ids: [ObjectID], into stack: CheckStack) throws {
        try stack.save(
            StoreChangeSet(
                inserted: ids.enumerated().map { index, id in
                    .init(objectID: id, values: ["serial": .integer64(Int64(index))], expectedVersion: 0)
                }))
    }

    /// Fails with `message` when six IDs the store hands out now include one of `ids`.
    private static func expectNotHandedOut(_ ids: [ObjectID], by stack: CheckStack, _ message: String) throws {
        let fresh = try stack.store.permanentIDs(forEntities: Array(repeating: ConformanceModel.sample, count: 6))
        try expect(Set(fresh).isDisjoint(with: ids), "\(message): \(fresh.filter(ids.contains)).")
    }

    static let referencesUniqueAcrossHierarchy = category.check(
        "referencesUniqueAcrossHierarchy",
        "Objects of different entities in one inheritance tree get different references."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            for (serial, entity) in ["Polygon", "Square", "Circle", "Square", "Circle", "Polygon"].enumerated() {
                try stack.insert(entity, ["serial": .integer64(Int64(serial))])
            }
            try stack.save()
            let shapes = try stack.objects("Shape")
            try expectEqual(shapes.count, 6, "The number of Shapes")
            let references = shapes.map(\.objectID.reference)
            try expectEqual(
                Set(references).count, 6, "The number of distinct references among \(shapes.map(\.objectID))")
        }
    }

    static let uriRoundTripAfterReopen = category.check(
        "uriRoundTripAfterReopen",
        "A saved object's URI finds the same object through a new coordinator after reopening."
    ) { harness in
        let uri: URL = try harness.withStore { stack in
            let object = try stack.insert(ConformanceModel.sample, ["serial": 7, "string": "seven"])
            try stack.save()
            return object.objectID.uriRepresentation
        }
        try harness.withStore { stack in
            let id = try require(
                stack.coordinator.objectID(forURIRepresentation: uri), "After reopening, \(uri) gives no object ID.")
            let object = try stack.run { try stack.context.existingObject(with: id) }
            try expectEqual(try stack.value(object, "serial"), 7, "The serial of the object at \(uri)")
            try expectEqual(try stack.value(object, "string"), "seven", "The string of the object at \(uri)")
        }
    }

    static let foreignAndMalformedURIs = category.check(
        "foreignAndMalformedURIs", "Malformed URIs and URIs of other stores or unknown entities give no object ID."
    ) { harness in
        try harness.withStore { stack in
            let object = try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
            let good = object.objectID.uriString
            let foreign = good.replacingOccurrences(of: stack.store.identifier, with: UUID().uuidString)
            let candidates = [
                foreign, good.replacingOccurrences(of: "/Sample/", with: "/Nothing/"), "x-strata://", "not a uri",
                "https://example.com/Sample/p1", good.replacingOccurrences(of: "/p", with: "/q"),
            ]
            for text in candidates {
                guard let uri = URL(string: text) else { continue }
                let id = stack.coordinator.objectID(forURIRepresentation: uri)
                try expect(id == nil, "The URI \(text) gave the object ID \(id.map { "\($0)" } ?? "")")
            }
        }
    }

    static let deletedSnapshotIsNil = category.check(
        "deletedSnapshotIsNil", "snapshot(for:) of a deleted object is nil, not an error."
    ) { harness in
        try harness.withStore { stack in
            let object = try stack.insert(ConformanceModel.sample, ["serial": 1])
            try stack.save()
            let id = object.objectID
            try stack.run { try stack.context.delete(object) }
            try stack.save()
            let snapshot = try stack.store.snapshot(for: id)
            try expect(
                snapshot == nil, "The deleted object \(id) still has a snapshot: \(snapshot.map { "\($0)" } ?? "").")
        }
    }
}
