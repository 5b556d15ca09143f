import Foundation
import Strata

/// I: saves are all or nothing, validation errors name object and key, metadata-only saves.
enum SaveChecks {
    static var all: [ConformanceCheck] { [] }

    private static let category = ConformanceCategory.saves
}
