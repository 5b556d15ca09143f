import Foundation
import Strata

/// H: limits, offsets, pagination, result types, batches, and faults whose record vanished.
enum FetchShapeChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.fetchShapes
}
