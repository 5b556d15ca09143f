import Foundation
import Testing

@testable import Strata

@Suite struct AttributeValueSortOrderTests {
    /// Values of every kind, numbers in many widths, and some strings that differ only in case
    /// or diacritics.
    static let pool: [AttributeValue] = {
        var pool: [AttributeValue] = [
            .null, .boolean(false), .boolean(true), .double(.nan), .float(.nan), .decimal(.nan),
        ]
        for text in ["-1e30", "-2", "-0.5", "0", "0.1", "0.3333333333333333", "1", "2.5", "9007199254740993", "1e20"] {
            pool += [.decimal(Decimal(string: text)!), .double(Double(text)!), .float(Float(text)!)]
            if let whole = Int64(text) { pool += [.integer64(whole), .integer16(Int16(clamping: whole))] }
        }
        pool += [.double(.infinity), .double(-.infinity), .integer64(.max), .integer64(.min)]
        pool += ["", "a", "A", "á", "a\u{301}", "b", "file2", "file10", "ß", "ss", "SS"].map { .string($0) }
        pool += [.date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: -1))]
        pool += [
            .binary(Data()), .binary(Data([1])), .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))),
        ]
        pool += [.uri(URL(string: "https://a.example")!), .uri(URL(string: "https://b.example")!)]
        pool += [
            .objectID(ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(1))),
            .objectID(ObjectID(storeIdentifier: "S", entityName: "Book", reference: .string("1"))),
            .objectID(ObjectID(storeIdentifier: nil, entityName: "Book", reference: .temporary(UUID()))),
        ]
        return pool
    }()

    private static func reversed(_ result: ComparisonResult) -> ComparisonResult {
        switch result {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }

    @Test(arguments: [FetchSortDescriptor.Comparison.binary, .caseInsensitive, .localizedStandard])
    func sortOrderIsATotalOrder(_ comparison: FetchSortDescriptor.Comparison) {
        let pool = Self.pool
        for a in pool {
            #expect(a.sortOrder(a, comparison: comparison) == .orderedSame, "\(a)")
            for b in pool {
                let ab = a.sortOrder(b, comparison: comparison)
                #expect(b.sortOrder(a, comparison: comparison) == Self.reversed(ab), "\(a) vs \(b)")
                for c in pool where ab != .orderedDescending {
                    let bc = b.sortOrder(c, comparison: comparison)
                    guard bc != .orderedDescending else { continue }
                    let ac = a.sortOrder(c, comparison: comparison)
                    #expect(ac != .orderedDescending, "\(a) ≤ \(b) ≤ \(c) but \(a) > \(c)")
                    if ab == .orderedAscending || bc == .orderedAscending {
                        #expect(ac == .orderedAscending, "\(a) < \(c) expected")
                    }
                }
            }
        }
    }

    @Test func sortOrderAgreesWithCompareWhereCompareOrders() {
        for a in Self.pool {
            for b in Self.pool {
                guard !a.isNull, !b.isNull, let result = a.compare(b) else { continue }
                #expect(a.sortOrder(b, comparison: .binary) == result, "\(a) vs \(b)")
            }
        }
    }
}
