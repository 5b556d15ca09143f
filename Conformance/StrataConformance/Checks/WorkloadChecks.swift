import Foundation
import Strata

/// R: seeded random workloads give the same results in the store and the oracle.
enum WorkloadChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.workloads
}
