import Foundation
import Testing

@testable import Strata

@Suite struct LocalizedStandardOrderTests {
    /// Strings in the order `localizedStandard` gives them; strings equal but for case,
    /// diacritics or leading zeros are ordered by their Unicode scalars.
    static let ordered: [[String]] = [
        ["file1", "file2", "file10", "file20", "file100"],
        ["A", "a", "á", "B", "b"],
        ["2 apples", "10 apples", "apples"],
        ["x9y", "x10y", "x10z"],
        ["v1.2", "v1.10", "v2.0"],
        ["a007", "a07", "a7", "a8"],
        ["", " ", "0", "9", "a"],
        ["file99999999999999999999998", "file99999999999999999999999", "file100000000000000000000000"],
        ["Resume", "Résumé", "resume", "résumé", "resumes"],
        ["strasse", "straße", "Strassen"],
        ["item٢", "item3", "item١٠"],
    ]

    @Test(arguments: ordered)
    func sortsAsFinderDoes(_ strings: [String]) {
        for (i, a) in strings.enumerated() {
            for (j, b) in strings.enumerated() {
                let expected: ComparisonResult = i < j ? .orderedAscending : (i > j ? .orderedDescending : .orderedSame)
                #expect(LocalizedStandardOrder.compare(a, b) == expected, "\(a) vs \(b)")
            }
        }
        #expect(strings.reversed().sorted { LocalizedStandardOrder.compare($0, $1) == .orderedAscending } == strings)
    }

    @Test func onlyIdenticalStringsAreTheSame() {
        #expect(LocalizedStandardOrder.compare("e\u{301}", "\u{E9}") != .orderedSame)
        #expect(LocalizedStandardOrder.compare("abc", "abc") == .orderedSame)
        #expect(LocalizedStandardOrder.compare("👍🏽", "👍🏽") == .orderedSame)
    }
}
