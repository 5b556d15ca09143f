import Foundation
import Strata

/// G: every sortable type in both directions, nil position, several descriptors, string
/// comparisons, and sorting with limit and offset, compared in order with the in-memory oracle.
/// Every sort ends with `serial` ascending, so ties have one expected order.
enum SortingChecks {
    static var all: [ConformanceCheck] {
        sortedTypes.flatMap { [directionCheck($0, ascending: true), directionCheck($0, ascending: false)] }
            + [
                nilPosition, multipleDescriptors, caseInsensitive, localized, limitOffset, limitOffsetWithPredicate,
                toOneKeyPath,
            ]
    }

    private static let category = ConformanceCategory.sorting

    private static let sortedTypes: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binary, .uuid, .uri,
    ]

    private static func directionCheck(_ type: AttributeType, ascending: Bool) -> ConformanceCheck {
        let key = ConformanceModel.attributeName(for: type)
        let direction = ascending ? "ascending" : "descending"
        return category.check(
            "\(key).\(direction)", "Samples sorted by their \(type) attribute, \(direction), nils included.",
            body: CheckHarness.oracleCheck(
                .records,
                [
                    samples([FetchSortDescriptor(key, ascending: ascending)]),
                    samples([FetchSortDescriptor(key, ascending: ascending)], where: "%K != nil", key),
                ]))
    }

    static let nilPosition = category.check(
        "nil.position", "Nil sorts first when ascending and last when descending, for numbers, strings and dates.",
        body: CheckHarness.oracleCheck(
            .records,
            [
                samples([FetchSortDescriptor("int16")], limit: 3, expecting: [1, 19, 2]),
                samples(
                    [FetchSortDescriptor("int16", ascending: false), FetchSortDescriptor("serial", ascending: false)],
                    offset: 21, expecting: [2, 19, 1]),
                samples([FetchSortDescriptor("string")], limit: 2, expecting: [1, 21]),
                samples([FetchSortDescriptor("date", ascending: false)]),
            ]))

    static let multipleDescriptors = category.check(
        "multipleDescriptors", "Later descriptors order the ties of earlier ones, each in its own direction.",
        body: CheckHarness.oracleCheck(
            .records,
            [
                samples([FetchSortDescriptor("boolean"), FetchSortDescriptor("int16", ascending: false)]),
                samples([FetchSortDescriptor("uuid", ascending: false), FetchSortDescriptor("string")]),
                samples([
                    FetchSortDescriptor("binary"), FetchSortDescriptor("uri", ascending: false),
                    FetchSortDescriptor("double"),
                ]),
            ]))

    static let caseInsensitive = category.check(
        "string.caseInsensitive",
        "Strings sorted ignoring case (ß as ss), both directions; ties go to the next descriptor.",
        body: CheckHarness.oracleCheck(
            .records,
            [
                samples([FetchSortDescriptor("string", comparison: .caseInsensitive)]),
                samples([FetchSortDescriptor("string", ascending: false, comparison: .caseInsensitive)]),
            ]))

    static let localized = category.check(
        "string.localized", "Strings sorted in localized standard order (case, diacritics, digit runs as numbers).",
        body: CheckHarness.oracleCheck(
            .records,
            [
                samples([FetchSortDescriptor("string", comparison: .localizedStandard)]),
                samples([FetchSortDescriptor("string", ascending: false, comparison: .localizedStandard)]),
            ]))

    static let limitOffset = category.check(
        "limitOffset", "Offset and limit apply after sorting, including pages past the end.",
        body: CheckHarness.oracleCheck(
            .records,
            [(0, 5), (3, 5), (20, 10), (23, 1), (30, 5), (5, nil)].map { offset, limit in
                samples([FetchSortDescriptor("int32", ascending: false)], offset: offset, limit: limit)
            }))

    static let limitOffsetWithPredicate = category.check(
        "limitOffset.withPredicate", "Offset and limit apply to the matching objects only, after sorting.",
        body: CheckHarness.oracleCheck(
            .records,
            [
                samples([FetchSortDescriptor("double")], where: "int16 > 0", offset: 2, limit: 4),
                samples(
                    [FetchSortDescriptor("string", comparison: .caseInsensitive)], where: "string BEGINSWITH[c] 'a'",
                    offset: 1, limit: 2),
            ]))

    static let toOneKeyPath = category.check(
        "keyPath.toOne", "People sorted by a key path through a to-one relationship, nil in the middle first.",
        body: CheckHarness.oracleCheck(
            .graph,
            [
                OracleQuery("Person", sortedBy: [FetchSortDescriptor("team.name"), serial]),
                OracleQuery("Person", sortedBy: [FetchSortDescriptor("manager.name", ascending: false), serial]),
                OracleQuery(
                    "Person", sortedBy: [FetchSortDescriptor("team.serial"), FetchSortDescriptor("age"), serial]),
            ]))

    private static let serial = FetchSortDescriptor("serial")

    /// A query for Samples sorted by `sortDescriptors` and then by serial.
    private static func samples(
        _ sortDescriptors: [FetchSortDescriptor], where format: String? = nil, _ arguments: any PredicateArgument...,
        offset: Int = 0, limit: Int? = nil, expecting expected: [Int64]? = nil
    ) -> OracleQuery {
        OracleQuery(
            ConformanceModel.sample, where: format, arguments, sortedBy: sortDescriptors + [serial], offset: offset,
            limit: limit, expecting: expected)
    }
}
