import Foundation
import Strata

/// F: every predicate operator, compared with the in-memory oracle.
enum PredicateChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.predicates
}
