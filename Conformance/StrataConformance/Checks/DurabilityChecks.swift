import Foundation
import Strata

/// M: a process killed during saves leaves the store at some committed save.
enum DurabilityChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.durability
}
