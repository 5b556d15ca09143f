import Foundation
import Strata

/// E: an abstract root three levels deep: fetches with and without sub-entities, inherited
/// attributes in predicates and sorts, entities kept after reopening.
enum InheritanceChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.inheritance
}
