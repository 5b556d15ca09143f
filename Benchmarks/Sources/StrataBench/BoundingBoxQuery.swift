import Foundation
import Strata

/// A bounding-box query on points in a SQLite store, three ways on the same data: through the
/// R-tree fetch index, through the binary index of one coordinate, and by scanning the table.
/// Each way fetches the IDs of the points in the same boxes; the report gives each one's time
/// per query and its ratio to the R-tree's.
enum BoundingBoxQuery {
    /// The side of the square the points lie in, and of each query's box.
    private static let side: Int32 = 100_000
    private static let boxSide: Int32 = 1_000
    /// Boxes per timed run, and points per batch insert while filling.
    private static let boxesPerRun = 20
    private static let pointsPerInsert = 50_000

    /// One way of running the query: its name and the predicate format it runs.
    private struct Way {
        let name: String
        let format: String
    }

    private static let ways = [
        Way(name: "R-tree", format: "x BETWEEN {%d, %d} AND y BETWEEN {%d, %d}"),
        Way(name: "binary index", format: "x BETWEEN {%d, %d} AND noindex:(y) BETWEEN {%d, %d}"),
        Way(name: "full scan", format: "noindex:(x) BETWEEN {%d, %d} AND noindex:(y) BETWEEN {%d, %d}"),
    ]

    /// The points' model: integer coordinates, each with a binary index, and an R-tree over both.
    static func makeModel() throws -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Point") {
                AttributeDescription("x", .integer32, optional: false, default: 0).indexed()
                AttributeDescription("y", .integer32, optional: false, default: 0).indexed()
                FetchIndexDescription(
                    name: "byLocation",
                    elements: [.init(propertyName: "x", kind: .rTree), .init(propertyName: "y", kind: .rTree)])
            }
        }
        try model.freeze()
        return model
    }

    /// Fills a store of `count` points and times each way over `repetitions` runs; one line of
    /// the report per way.
    static func measure(count: Int, repetitions: Int, log: (String) -> Void) throws -> [String] {
        let scratch = try ScratchDirectory("bounding-box")
        defer { scratch.remove() }
        let coordinator = try PersistentStoreCoordinator(model: try makeModel(), storeTypes: StrataSubject.storeTypes)
        try coordinator.addStore(
            type: "SQLite", at: try scratch.fresh("points").appendingPathComponent("points.sqlite"))
        log("Filling a SQLite store of \(count) points")
        var generator = SplitMix(seed: 2017)
        var inserted = 0
        while inserted < count {
            let batch = min(pointsPerInsert, count - inserted)
            let objects = (0..<batch).map { _ -> [String: AttributeValue] in
                ["x": .integer32(generator.next(below: side)), "y": .integer32(generator.next(below: side))]
            }
            _ = try coordinator.execute(BatchInsertRequest(entityName: "Point", objects: objects))
            inserted += batch
        }
        var boxes: [[Int32]] = []
        for _ in 0..<boxesPerRun {
            let x = generator.next(below: side - boxSide)
            let y = generator.next(below: side - boxSide)
            boxes.append([x, x + boxSide, y, y + boxSide])
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        var medians: [Double] = []
        var found: [Int] = []
        for way in ways {
            log("Querying \(boxesPerRun) boxes through the \(way.name), \(repetitions) times")
            var times: [Double] = []
            for repetition in 0...repetitions {
                var total = 0
                let elapsed = try clock {
                    for box in boxes {
                        var request = FetchRequest<ManagedObject>(entityName: "Point")
                        request.predicate = try FetchPredicate(
                            format: String(format: way.format, box[0], box[1], box[2], box[3]))
                        total += try context.performAndWait { try context.fetchObjectIDs(request).count }
                    }
                }
                if repetition > 0 { times.append(elapsed.milliseconds / Double(boxesPerRun)) }
                if repetition == 0 { found.append(total) }
            }
            medians.append(times.sorted()[times.count / 2])
        }
        guard Set(found).count == 1 else {
            throw FloorError(description: "the three ways found different points: \(found)")
        }
        return zip(ways, medians).map { way, median in
            String(
                format: "%@: %.3f ms per box (%d points in %d boxes), × R-tree %.2f", way.name, median,
                found[0], boxesPerRun, median / medians[0])
        }
    }
}
