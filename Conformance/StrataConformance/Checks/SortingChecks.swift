import Foundation
import Strata

/// G: every sortable type in both directions, nil position, several descriptors, string
/// comparisons, and sorting with limit and offset.
enum SortingChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.sorting
}
