import Foundation
import Strata

/// N: damaged, foreign and unreadable files give typed errors and stay untouched.
enum BadFileChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.badFiles
}
