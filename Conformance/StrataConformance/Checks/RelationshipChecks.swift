import Foundation
import Strata

/// D: to-one, to-many, many-to-many, self-referential and ordered relationships, inverses, counts and
/// every delete rule.
enum RelationshipChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.relationships
}
