import Foundation
import Strata

/// B: object IDs are temporary until saved, then permanent, never reused, unique across an
/// inheritance tree, and their URIs lead back to the object after reopening.
enum IdentityChecks {
    static var all: [ConformanceCheck] {
        [
            temporaryUntilSaved, permanentIDsInInputOrder, deletedReferencesAreNotReused,
            idsOfAnotherOpeningAreNotReused, referencesUniqueAcrossHierarchy, uriRoundTripAfterReopen,
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
            try stack.save(
                StoreChangeSet(
                    inserted: handedOut.enumerated().map { index, id in
                        .init(objectID: id, values: ["serial": .integer64(Int64(index))], expectedVersion: 0)
                    }))
            let fresh = try stack.store.permanentIDs(forEntities: Array(repeating: ConformanceModel.sample, count: 3))
            try expect(
                Set(fresh).isDisjoint(with: handedOut),
                "IDs saved from an earlier opening were handed out again: \(fresh.filter(handedOut.contains)).")
        }
        try harness.withStore { stack in
            let fresh = try stack.store.permanentIDs(forEntities: Array(repeating: ConformanceModel.sample, count: 6))
            try expect(
                Set(fresh).isDisjoint(with: handedOut),
                "After reopening, IDs saved from an earlier opening were handed out again: "
                    + "\(fresh.filter(handedOut.contains)).")
        }
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
