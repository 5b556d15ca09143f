import Foundation
import Strata

/// E: an abstract root three levels deep: fetches with and without sub-entities, inherited
/// attributes in predicates and sorts, entities kept after reopening.
///
/// Every check saves the same six shapes (two plain polygons, two squares, two circles), reopens,
/// and fetches twice: through a context, and straight from the store with `execute`.
enum InheritanceChecks {
    static var all: [ConformanceCheck] {
        [
            fetchParentIncludesSubentities, fetchParentExcludesSubentities, abstractRootFetch, leafEntityFetch,
            countWithSubentities, predicateOnInheritedAttribute, predicateOnParentAttribute, sortOnInheritedAttribute,
            sortedPageAcrossSubentities, entityKeptAfterReopen, inheritedValuesAfterReopen, abstractRootRefused,
            batchUpdateWithoutSubentities,
        ]
    }

    private static let category = ConformanceCategory.inheritance

    static let fetchParentIncludesSubentities = category.check(
        "fetchParentIncludesSubentities", "A fetch of a parent entity returns its own objects and its sub-entities'."
    ) { harness in
        try withShapes(harness) { stack in
            try expectFetch("Polygon", gives: ["tri", "hex", "sq1", "sq3"], in: stack)
            try expectFetch("Shape", gives: ["tri", "hex", "sq1", "sq3", "c1", "c2"], in: stack)
        }
    }

    static let fetchParentExcludesSubentities = category.check(
        "fetchParentExcludesSubentities",
        "A fetch of a parent entity without sub-entities returns its own objects only."
    ) { harness in
        try withShapes(harness) { stack in
            try expectFetch("Polygon", includesSubentities: false, gives: ["tri", "hex"], in: stack)
        }
    }

    static let batchUpdateWithoutSubentities = category.check(
        "batchUpdateWithoutSubentities",
        "A batch update of a parent entity without sub-entities changes its own objects only, and with them its "
            + "sub-entities' too."
    ) { harness in
        try withShapes(harness) { stack in
            var request = BatchUpdateRequest(
                entityName: "Polygon", predicate: nil, propertiesToUpdate: ["sides": .constant(.integer16(9))])
            request.includesSubentities = false
            request.resultType = .objectIDs
            let updated = try stack.coordinator.execute(request).objectIDs ?? []
            try expectEqual(Set(updated.map(\.entityName)), ["Polygon"], "The entities of the updated objects")
            try expectEqual(updated.count, 2, "The number of polygons updated without sub-entities")
            try expectFetch("Polygon", where: "sides == 9", gives: ["tri", "hex"], in: stack)
            try expectFetch("Square", where: "sides == 4", gives: ["sq1", "sq3"], in: stack)
            request.includesSubentities = true
            request.propertiesToUpdate = ["sides": .constant(.integer16(5))]
            try expectEqual(
                try stack.coordinator.execute(request).objectIDs?.count, 4,
                "The number of polygons updated with sub-entities")
            try expectFetch("Polygon", where: "sides == 5", gives: ["tri", "hex", "sq1", "sq3"], in: stack)
        }
    }

    static let abstractRootFetch = category.check(
        "abstractRootFetch",
        "A fetch of the abstract root finds every shape as its concrete entity, and none without sub-entities."
    ) { harness in
        try withShapes(harness) { stack in
            try expectFetch("Shape", gives: shapes.map(\.name), in: stack)
            try expectFetch("Shape", includesSubentities: false, gives: [], in: stack)
            let ids = try stack.store.fetchedIDs(StoreFetchRequest(entityName: "Shape"))
            try expectEqual(
                ids.map(\.entityName).sorted(), shapes.map(\.entity).sorted(), "The entities of the fetched Shape IDs")
        }
    }

    static let abstractRootRefused = category.check(
        "abstractRootRefused",
        "An object of the abstract root can be neither inserted into a context (abstractEntity) nor saved to the "
            + "store (invalidChange); the store stays empty."
    ) { harness in
        try harness.withStore { stack in
            try expectError(
                "ContextError.abstractEntity inserting a Shape",
                { try stack.run { _ = try stack.context.insertNewObject(forEntityName: "Shape") } },
                matches: { ($0 as? ContextError)?.code == .abstractEntity })
            let id = try stack.store.permanentIDs(forEntities: ["Shape"])[0]
            try expectError(
                "StoreError.invalidChange saving a Shape",
                {
                    try stack.save(
                        StoreChangeSet(inserted: [.init(objectID: id, values: ["name": "abstract"], expectedVersion: 0)]
                        ))
                }, matches: { ($0 as? StoreError)?.code == .invalidChange })
            try expectEqual(
                try stack.store.fetchedIDs(StoreFetchRequest(entityName: "Shape")), [], "The Shapes in the store")
        }
    }

    static let leafEntityFetch = category.check(
        "leafEntityFetch", "A fetch of a leaf entity returns its objects alone, with or without sub-entities."
    ) { harness in
        try withShapes(harness) { stack in
            for includes in [true, false] {
                try expectFetch("Square", includesSubentities: includes, gives: ["sq1", "sq3"], in: stack)
                try expectFetch("Circle", includesSubentities: includes, gives: ["c1", "c2"], in: stack)
            }
        }
    }

    static let countWithSubentities = category.check(
        "countWithSubentities", "Counting an entity counts its sub-entities' objects only when asked to."
    ) { harness in
        try withShapes(harness) { stack in
            let expected: [(String, Bool, Int)] = [
                ("Shape", true, 6), ("Shape", false, 0), ("Polygon", true, 4), ("Polygon", false, 2),
                ("Square", true, 2), ("Square", false, 2), ("Circle", true, 2), ("Circle", false, 2),
            ]
            for (entity, includes, count) in expected {
                let subject = "The count of \(entity) \(includes ? "with" : "without") sub-entities"
                let result = try stack.store.execute(
                    StoreFetchRequest(entityName: entity, includesSubentities: includes, resultType: .count))
                try expectEqual(result, .count(count), "\(subject) from execute")
                var request = try stack.request(entity)
                request.includesSubentities = includes
                try expectEqual(
                    try stack.run { try stack.context.count(for: request) }, count, "\(subject) from a context")
            }
        }
    }

    static let predicateOnInheritedAttribute = category.check(
        "predicateOnInheritedAttribute", "A predicate on an attribute of the root filters every sub-entity's objects."
    ) { harness in
        try withShapes(harness) { stack in
            try expectFetch("Polygon", where: "area > 5", gives: ["tri", "hex", "sq3"], in: stack)
            try expectFetch("Shape", where: "name BEGINSWITH 'c' OR area < 2", gives: ["c1", "c2", "sq1"], in: stack)
            try expectFetch("Square", where: "serial < 5", gives: ["sq3"], in: stack)
        }
    }

    static let predicateOnParentAttribute = category.check(
        "predicateOnParentAttribute", "A predicate on an attribute a middle entity declares filters its sub-entity too."
    ) { harness in
        try withShapes(harness) { stack in
            try expectFetch("Polygon", where: "sides == 4", gives: ["sq1", "sq3"], in: stack)
            try expectFetch("Polygon", where: "sides < 4", includesSubentities: false, gives: ["tri"], in: stack)
            try expectFetch("Square", where: "edge > 2 AND sides == 4", gives: ["sq3"], in: stack)
        }
    }

    static let sortOnInheritedAttribute = category.check(
        "sortOnInheritedAttribute", "Sorting on an attribute of the root orders objects of different entities together."
    ) { harness in
        try withShapes(harness) { stack in
            try expectFetch(
                "Shape", sortedBy: [FetchSortDescriptor("area", ascending: false)],
                gives: ["hex", "c2", "sq3", "tri", "c1", "sq1"], in: stack)
            try expectFetch(
                "Polygon", sortedBy: [FetchSortDescriptor("sides"), FetchSortDescriptor("name")],
                gives: ["tri", "sq1", "sq3", "hex"], in: stack)
        }
    }

    static let sortedPageAcrossSubentities = category.check(
        "sortedPageAcrossSubentities", "An offset and limit apply to the sorted objects of every sub-entity together."
    ) { harness in
        try withShapes(harness) { stack in
            try expectFetch(
                "Shape", sortedBy: [FetchSortDescriptor("serial")], offset: 1, limit: 3, gives: ["hex", "c1", "sq3"],
                in: stack)
        }
    }

    static let entityKeptAfterReopen = category.check(
        "entityKeptAfterReopen", "Each saved object keeps its concrete entity, in its ID and its context object."
    ) { harness in
        let ids: [String: ObjectID] = try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let objects = try insertShapes(in: stack)
            try stack.save()
            return objects.mapValues(\.objectID)
        }
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            for shape in shapes {
                let id = try require(ids[shape.name], "The check saved no shape called '\(shape.name)'.")
                try expectEqual(id.entityName, shape.entity, "The entity in the ID of '\(shape.name)'")
                let object = try stack.run { try stack.context.existingObject(with: id) }
                try expectEqual(
                    object.entity.name, shape.entity, "The entity of '\(shape.name)' read through a context")
                let found = try stack.objects("Shape", where: "name == %@", arguments: [shape.name])
                try expectEqual(
                    found.map(\.objectID), [id], "The Shape objects called '\(shape.name)' after reopening")
            }
        }
    }

    static let inheritedValuesAfterReopen = category.check(
        "inheritedValuesAfterReopen", "A square keeps the attributes of all three levels after reopening."
    ) { harness in
        try withShapes(harness) { stack in
            let square = try require(
                try stack.objects("Square", where: "name == 'sq3'").first,
                "The Square 'sq3' is missing after reopening.")
            let expected: [String: AttributeValue] = [
                "serial": .integer64(4), "name": "sq3", "area": .double(9), "sides": .integer16(4), "edge": .double(3),
            ]
            let snapshot = try require(
                try stack.store.snapshot(for: square.objectID), "The store has no snapshot of the Square 'sq3'.")
            for (key, value) in expected.sorted(by: { $0.key < $1.key }) {
                let stored = snapshot.values[key]
                try expect(
                    stored?.isIdentical(to: value) == true,
                    "snapshot(for: Square 'sq3').values[\"\(key)\"]: expected \(value.exactDescription), "
                        + "got \(stored?.exactDescription ?? "no value").")
                let read = try stack.value(square, key)
                try expect(
                    read.isIdentical(to: value),
                    "Square 'sq3'.\(key) read through a context: expected \(value.exactDescription), "
                        + "got \(read.exactDescription).")
            }
        }
    }

    /// The six shapes every check saves: name, entity, serial, area, and the entity's own values.
    private static let shapes: [(name: String, entity: String, values: [String: AttributeValue])] = [
        ("tri", "Polygon", ["serial": 1, "area": .double(6), "sides": .integer16(3)]),
        ("hex", "Polygon", ["serial": 2, "area": .double(24), "sides": .integer16(6)]),
        ("c1", "Circle", ["serial": 3, "area": .double(3.14), "radius": .double(1)]),
        ("sq3", "Square", ["serial": 4, "area": .double(9), "sides": .integer16(4), "edge": .double(3)]),
        ("c2", "Circle", ["serial": 5, "area": .double(12.57), "radius": .double(2)]),
        ("sq1", "Square", ["serial": 6, "area": .double(1), "sides": .integer16(4), "edge": .double(1)]),
    ]

    /// Inserts ``shapes`` and returns them by name.
    private static func insertShapes(in stack: CheckStack) throws -> [String: ManagedObject] {
        var objects: [String: ManagedObject] = [:]
        for shape in shapes {
            var values = shape.values
            values["name"] = .string(shape.name)
            objects[shape.name] = try stack.insert(shape.entity, values)
        }
        return objects
    }

    /// Saves ``shapes``, reopens the store, and runs `body` on it.
    private static func withShapes(_ harness: CheckHarness, _ body: (CheckStack) throws -> Void) throws {
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            _ = try insertShapes(in: stack)
            try stack.save()
        }
        try harness.withStore(configuration: ConformanceModel.graph, body: body)
    }

    /// Checks that fetching `entity` as described gives the shapes called `expected` (in that
    /// order when sorted), through a context and through `execute` (snapshots and IDs). The store
    /// is asked for the predicate only when it declares the features the predicate needs.
    private static func expectFetch(
        _ entity: String, where format: String? = nil, includesSubentities: Bool = true,
        sortedBy sortDescriptors: [FetchSortDescriptor] = [], offset: Int = 0, limit: Int? = nil,
        gives expected: [String], in stack: CheckStack
    ) throws {
        let ordered = !sortDescriptors.isEmpty
        let predicate = try format.map { try FetchPredicate(format: $0) }
        let order = sortDescriptors.map { $0.keyPath + ($0.ascending ? "" : " descending") }
        let subject =
            "A fetch of \(entity)\(includesSubentities ? "" : " without sub-entities")"
            + (format.map { " where \($0)" } ?? "") + (ordered ? " sorted by \(order.joined(separator: ", "))" : "")
            + (offset > 0 || limit != nil ? " (offset \(offset), limit \(limit.map(String.init) ?? "none"))" : "")
        func compare(_ names: [String], _ how: String) throws {
            if ordered {
                try expectEqual(names, expected, "\(subject) \(how)")
            } else {
                try expectEqual(names.sorted(), expected.sorted(), "\(subject) \(how) (in any order)")
            }
        }

        var request = try stack.request(entity, sortedBy: sortDescriptors)
        request.predicate = predicate
        request.includesSubentities = includesSubentities
        request.fetchOffset = offset
        request.fetchLimit = limit
        let objects = try stack.fetch(request)
        try compare(
            try stack.run { try objects.map { try $0.value(forKey: "name").get(String.self) ?? "-" } },
            "through a context")

        guard predicate.map({ stack.store.predicateFeatures.isSuperset(of: $0.requiredFeatures) }) ?? true else {
            return
        }
        let storeRequest = StoreFetchRequest(
            entityName: entity, includesSubentities: includesSubentities, predicate: predicate,
            sortDescriptors: sortDescriptors, fetchOffset: offset, fetchLimit: limit)
        let snapshots = try stack.store.fetchedSnapshots(storeRequest)
        try compare(snapshots.map { $0.values["name"]?.get(String.self) ?? "-" }, "through execute")
        let ids = try stack.store.fetchedIDs(storeRequest)
        let idSubject = "\(subject) through execute: the IDs, compared with the snapshots' IDs"
        if ordered {
            try expectEqual(ids, snapshots.map(\.objectID), idSubject)
        } else {
            try expectEqual(Set(ids), Set(snapshots.map(\.objectID)), idSubject)
        }
    }
}
