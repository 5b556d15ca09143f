import Foundation
import Strata

/// J: versions start at 1 and grow by one per save; stale edits conflict.
enum OptimisticLockingChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.optimisticLocking
}
