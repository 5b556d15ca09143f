import Foundation
import Strata

/// H (dictionary fetches): groups with aggregates and a having-predicate, aggregates without
/// grouping, distinct rows, computed values per object, refused shapes, and fetches that read
/// no values.
enum DictionaryFetchChecks {
    static var all: [ConformanceCheck] {
        [
            groupByWithAggregates, aggregatesWithoutGrouping, distinctRows, expressionPerObject, refusedShapes,
            withoutPropertyValues,
        ]
    }

    private static let category = ConformanceCategory.fetchShapes

    static let groupByWithAggregates = category.check(
        "dictionary.groupBy",
        "A dictionary fetch grouped by a key gives one row per value with count:, sum: and max: over the group; "
            + "a having-predicate keeps the rows it matches; the limit counts rows."
    ) { harness in
        try withNineSamples(harness) { stack in
            var request = FetchRequest<ManagedObject>(entityName: ConformanceModel.sample)
            request.propertiesToGroupBy = ["int16"]
            request.sortDescriptors = [FetchSortDescriptor("int16")]
            request.expressionsToFetch = try [
                ExpressionDescription(name: "total", expression: FetchExpression(format: "sum:(serial)")),
                ExpressionDescription(name: "count", expression: FetchExpression(format: "count:(serial)")),
                ExpressionDescription(name: "largest", expression: FetchExpression(format: "max:(serial)")),
            ]
            let rows = try stack.run { try stack.context.fetchDictionaries(request) }
            try expectEqual(
                rows.map(describe),
                [
                    "count=3 int16=0 largest=9 total=18", "count=3 int16=1 largest=7 total=12",
                    "count=3 int16=2 largest=8 total=15",
                ], "the grouped rows")
            request.havingPredicate = try FetchPredicate(format: "total > 12")
            let kept = try stack.run { try stack.context.fetchDictionaries(request) }
            try expectEqual(kept.map(describe), [rows[0], rows[2]].map(describe), "the rows the having-predicate kept")
            request.fetchLimit = 1
            request.fetchOffset = 1
            let page = try stack.run { try stack.context.fetchDictionaries(request) }
            try expectEqual(page.map(describe), [describe(rows[2])], "the second kept row alone")
        }
    }

    static let aggregatesWithoutGrouping = category.check(
        "dictionary.aggregates",
        "Aggregates without grouping give one row over every matching object (nulls left out), also when none "
            + "matches."
    ) { harness in
        try withNineSamples(harness) { stack in
            var request = FetchRequest<ManagedObject>(entityName: ConformanceModel.sample)
            request.predicate = try FetchPredicate(format: "serial <= 4")
            request.expressionsToFetch = try [
                ExpressionDescription(name: "n", expression: FetchExpression(format: "count:(serial)")),
                ExpressionDescription(name: "mean", expression: FetchExpression(format: "average:(serial)")),
                ExpressionDescription(name: "strings", expression: FetchExpression(format: "count:(double)")),
            ]
            let rows = try stack.run { try stack.context.fetchDictionaries(request) }
            try expectEqual(rows.map(describe), ["mean=2.5 n=4 strings=0"], "the aggregate row")
            request.predicate = try FetchPredicate(format: "serial > 100")
            let empty = try stack.run { try stack.context.fetchDictionaries(request) }
            try expectEqual(empty.count, 1, "the number of aggregate rows when nothing matches")
            try expectEqual(empty.first?["n"].map(number), 0, "the count when nothing matches")
        }
    }

    static let distinctRows = category.check(
        "dictionary.distinct", "A dictionary fetch with returnsDistinctResults leaves out rows equal to an earlier one."
    ) { harness in
        try withNineSamples(harness) { stack in
            var request = FetchRequest<ManagedObject>(entityName: ConformanceModel.sample)
            request.propertiesToFetch = ["int16"]
            request.sortDescriptors = [FetchSortDescriptor("serial")]
            request.returnsDistinctResults = true
            let rows = try stack.run { try stack.context.fetchDictionaries(request) }
            try expectEqual(rows.map(describe), ["int16=1", "int16=2", "int16=0"], "the distinct rows")
        }
    }

    static let expressionPerObject = category.check(
        "dictionary.expression", "A non-aggregate expression gives a value per object, beside the fetched properties."
    ) { harness in
        try withNineSamples(harness) { stack in
            var request = FetchRequest<ManagedObject>(entityName: ConformanceModel.sample)
            request.predicate = try FetchPredicate(format: "serial <= 2")
            request.sortDescriptors = [FetchSortDescriptor("serial")]
            request.propertiesToFetch = ["serial"]
            request.expressionsToFetch = [
                ExpressionDescription(name: "double", expression: try FetchExpression(format: "serial * 2"))
            ]
            let rows = try stack.run { try stack.context.fetchDictionaries(request) }
            try expectEqual(rows.map(describe), ["double=2 serial=1", "double=4 serial=2"], "the rows")
        }
    }

    static let refusedShapes = category.check(
        "dictionary.refusedShapes",
        "A grouped fetch of a property it neither groups by nor aggregates, and a having-predicate without "
            + "grouping, fail with invalidRequest."
    ) { harness in
        try withNineSamples(harness) { stack in
            var grouped = FetchRequest<ManagedObject>(entityName: ConformanceModel.sample)
            grouped.propertiesToGroupBy = ["int16"]
            grouped.propertiesToFetch = ["int16", "string"]
            var having = FetchRequest<ManagedObject>(entityName: ConformanceModel.sample)
            having.havingPredicate = try FetchPredicate(format: "serial > 1")
            for (name, request) in [("string", grouped), ("having", having)] {
                try expectError(
                    "invalidRequest naming '\(name)'",
                    {
                        _ = try stack.run { try stack.context.fetchDictionaries(request) }
                    }
                ) { error in
                    (error as? ContextError)?.code == .invalidRequest && "\(error)".contains(name)
                }
            }
        }
    }

    static let withoutPropertyValues = category.check(
        "withoutPropertyValues",
        "A fetch with includesPropertyValues off returns the objects as faults even when returnsObjectsAsFaults "
            + "is off; their values load on use."
    ) { harness in
        try withNineSamples(harness) { stack in
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            var request = FetchRequest<ManagedObject>(entityName: ConformanceModel.sample)
            request.sortDescriptors = [FetchSortDescriptor("serial")]
            request.returnsObjectsAsFaults = false
            request.includesPropertyValues = false
            let objects = try reader.fetch(request)
            try reader.run {
                try expect(objects.allSatisfy(\.isFault), "An object came back with its values.")
                try expectEqual(try objects.last?.value(forKey: "serial"), .integer64(9), "the last object's serial")
            }
        }
    }

    /// Runs `body` on a store holding Samples 1 to 9 (`int16` the serial modulo 3).
    private static func withNineSamples(_ harness: CheckHarness, _ body: (CheckStack) throws -> Void) throws {
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            try stack.saveSamples(1...9)
            try body(stack)
        }
    }

    /// A row as `key=value` pairs in key order, numbers written plainly.
    private static func describe(_ row: [String: AttributeValue]) -> String {
        row.sorted { $0.key < $1.key }.map { key, value in
            let number = number(value)
            let text = number.map { $0 == $0.rounded() ? String(Int64($0)) : String($0) } ?? "\(value)"
            return "\(key)=\(text)"
        }.joined(separator: " ")
    }

    /// `value` as a number, whatever its numeric type.
    private static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer16(let n): Double(n)
        case .integer32(let n): Double(n)
        case .integer64(let n): Double(n)
        case .double(let n): n
        case .float(let n): Double(n)
        case .decimal(let n): NSDecimalNumber(decimal: n).doubleValue
        default: nil
        }
    }
}
