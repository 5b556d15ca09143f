import Foundation
import Testing

@testable import Strata

@Suite struct FetchSortDescriptorSortingTests: EvaluationTesting {
    /// Records with an `n` (the original position) and the given values for `key`.
    private func records(_ key: String, _ values: [AttributeValue]) -> [KeyValueRecord] {
        values.enumerated().map {
            KeyValueRecord(["n": .value(.integer64(Int64($0.offset))), key: .value($0.element)])
        }
    }

    private func order(_ sorted: [KeyValueRecord]) -> [Int64] {
        sorted.map { record -> Int64 in
            guard case .value(let value) = record.resolvedValue(forKey: "n"), let n = Int64(attributeValue: value)
            else {
                return -1
            }
            return n
        }
    }

    private func sortedValues(_ values: [AttributeValue], by descriptor: FetchSortDescriptor) throws -> [AttributeValue]
    {
        try FetchSortDescriptor.sorted(records(descriptor.keyPath, values), by: [descriptor]).map {
            guard case .value(let value) = $0.resolvedValue(forKey: descriptor.keyPath) else { return .null }
            return value
        }
    }

    @Test func nullSortsFirstAscendingAndLastDescending() throws {
        let values: [AttributeValue] = [.integer16(2), .null, .integer16(1), .null]
        #expect(try sortedValues(values, by: FetchSortDescriptor("x")) == [.null, .null, .integer16(1), .integer16(2)])
        #expect(
            try sortedValues(values, by: FetchSortDescriptor("x", ascending: false)) == [
                .integer16(2), .integer16(1), .null, .null,
            ])
        let strings: [AttributeValue] = [.string("b"), .null, .string("")]
        #expect(try sortedValues(strings, by: FetchSortDescriptor("x")) == [.null, .string(""), .string("b")])
    }

    @Test func numbersSortByValueAcrossWidths() throws {
        let values: [AttributeValue] = [
            .double(2.5), .integer16(3), .decimal(-1), .float(0.5), .boolean(true), .integer64(.min), .double(.nan),
        ]
        let expected: [AttributeValue] = [
            .double(.nan), .integer64(.min), .decimal(-1), .float(0.5), .boolean(true), .double(2.5), .integer16(3),
        ]
        #expect(try sortedValues(values, by: FetchSortDescriptor("x")) == expected)
    }

    @Test func binaryComparisonUsesUnicodeScalars() throws {
        let values: [AttributeValue] = ["b", "a", "B", "é", "e\u{301}", "Z", "😀"].map { .string($0) }
        let expected: [AttributeValue] = ["B", "Z", "a", "b", "e\u{301}", "é", "😀"].map { .string($0) }
        #expect(try sortedValues(values, by: FetchSortDescriptor("x")) == expected)
    }

    @Test func caseInsensitiveComparisonLeavesCaseTiesToTheNextDescriptor() throws {
        let values: [AttributeValue] = ["b", "A", "a", "B", "ß", "SS"].map { .string($0) }
        let items = records("x", values)
        let byName = FetchSortDescriptor("x", comparison: .caseInsensitive)
        #expect(try order(FetchSortDescriptor.sorted(items, by: [byName])) == [1, 2, 0, 3, 4, 5])
        let thenByPosition = FetchSortDescriptor("n", ascending: false)
        #expect(try order(FetchSortDescriptor.sorted(items, by: [byName, thenByPosition])) == [2, 1, 3, 0, 5, 4])
    }

    @Test func localizedStandardComparisonIsFinderLike() throws {
        let values: [AttributeValue] = ["file10", "File2", "file1", "fïle3", "file2"].map { .string($0) }
        let expected: [AttributeValue] = ["file1", "File2", "file2", "fïle3", "file10"].map { .string($0) }
        #expect(try sortedValues(values, by: FetchSortDescriptor("x", comparison: .localizedStandard)) == expected)
        #expect(
            try sortedValues(values, by: FetchSortDescriptor("x", ascending: false, comparison: .localizedStandard))
                == expected.reversed())
    }

    @Test func otherKindsSortInTheirNaturalOrder() throws {
        let early = Date(timeIntervalSinceReferenceDate: -5)
        let late = Date(timeIntervalSinceReferenceDate: 5)
        #expect(
            try sortedValues([.date(late), .date(early)], by: FetchSortDescriptor("x")) == [.date(early), .date(late)])
        let bytes: [AttributeValue] = [.binary(Data([2])), .binary(Data([1, 5])), .binary(Data([1]))]
        #expect(
            try sortedValues(bytes, by: FetchSortDescriptor("x")) == [
                .binary(Data([1])), .binary(Data([1, 5])), .binary(Data([2])),
            ])
        let low = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
        let high = UUID(uuid: (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        #expect(
            try sortedValues([.uuid(high), .uuid(low)], by: FetchSortDescriptor("x")) == [.uuid(low), .uuid(high)])
    }

    @Test func objectIDsHaveATotalOrder() throws {
        let ids = [
            ObjectID(storeIdentifier: "B", entityName: "Book", reference: .integer(1)),
            ObjectID(storeIdentifier: "A", entityName: "Book", reference: .string("k")),
            ObjectID(storeIdentifier: "A", entityName: "Book", reference: .integer(10)),
            ObjectID(storeIdentifier: "A", entityName: "Book", reference: .integer(9)),
            ObjectID(storeIdentifier: "A", entityName: "Author", reference: .integer(99)),
            ObjectID(storeIdentifier: nil, entityName: "Book", reference: .temporary(UUID())),
        ]
        let sorted = try sortedValues(ids.map { .objectID($0) }, by: FetchSortDescriptor("x"))
        #expect(sorted == [ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]].map { .objectID($0) })
    }

    @Test func mixedKindsSortByKindDeterministically() throws {
        let date = Date(timeIntervalSinceReferenceDate: 0)
        let id = ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(1))
        let uuid = UUID()
        let url = URL(string: "https://a.example")!
        let expected: [AttributeValue] = [
            .null, .integer16(-1), .boolean(true), .double(7), .string("1"), .string("a"), .date(date),
            .binary(Data([0])), .uuid(uuid), .uri(url), .objectID(id),
        ]
        for shuffle in 0..<5 {
            let input = expected.enumerated().sorted { ($0.offset * 7 + shuffle) % 11 < ($1.offset * 7 + shuffle) % 11 }
                .map(\.element)
            #expect(try sortedValues(input, by: FetchSortDescriptor("x")) == expected)
            #expect(try sortedValues(input, by: FetchSortDescriptor("x", ascending: false)) == expected.reversed())
        }
    }

    @Test func sortingIsStableAcrossSeveralDescriptors() throws {
        let people: [KeyValueRecord] = [
            ("Ann", 30), ("bob", 25), ("ann", 25), ("Bob", 30), ("Cy", 25), ("ann", 30), ("Ann", 25),
        ].enumerated().map { index, person in
            KeyValueRecord([
                "n": .value(.integer64(Int64(index))), "name": .value(.string(person.0)),
                "age": .value(.integer16(Int16(person.1))),
            ])
        }
        let byName = FetchSortDescriptor("name", comparison: .caseInsensitive)
        let byAgeDescending = FetchSortDescriptor("age", ascending: false)
        #expect(try order(FetchSortDescriptor.sorted(people, by: [byName, byAgeDescending])) == [0, 5, 2, 6, 3, 1, 4])
        #expect(try order(FetchSortDescriptor.sorted(people, by: [byAgeDescending])) == [0, 3, 5, 1, 2, 4, 6])
        #expect(try order(FetchSortDescriptor.sorted(people, by: [])) == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test func sortsByKeyPathsThroughToOneRelationshipsAndCollectionOperators() throws {
        let withAuthor = KeyValueRecord([
            "n": .value(.integer64(0)), "author": .object(KeyValueRecord(["name": .value(.string("Zed"))])),
            "tags": .objects([KeyValueRecord([:]), KeyValueRecord([:])]),
        ])
        let withoutAuthor = KeyValueRecord(["n": .value(.integer64(1)), "author": .value(.null), "tags": .objects([])])
        let another = KeyValueRecord([
            "n": .value(.integer64(2)), "author": .object(KeyValueRecord(["name": .value(.string("Amy"))])),
            "tags": .objects([KeyValueRecord([:])]),
        ])
        let books = [withAuthor, withoutAuthor, another]
        #expect(try order(FetchSortDescriptor.sorted(books, by: [FetchSortDescriptor("author.name")])) == [1, 2, 0])
        #expect(try order(FetchSortDescriptor.sorted(books, by: [FetchSortDescriptor("tags.@count")])) == [1, 2, 0])
    }

    @Test func sortingExistentialsKeepsTheObjects() throws {
        let items: [any KeyValueResolving] = records("x", [.integer16(3), .integer16(1), .integer16(2)])
        let sorted = try FetchSortDescriptor.sorted(items, by: [FetchSortDescriptor("x")])
        #expect(sorted.map(\.objectIdentity) == [.null, .null, .null])
        #expect(
            try FetchSortDescriptor.compare(sorted[0], sorted[1], by: [FetchSortDescriptor("x")]) == .orderedAscending)
        #expect(
            try FetchSortDescriptor.compare(sorted[2], sorted[1], by: [FetchSortDescriptor("x")]) == .orderedDescending)
        #expect(try FetchSortDescriptor.compare(sorted[2], sorted[2], by: [FetchSortDescriptor("x")]) == .orderedSame)
        #expect(try FetchSortDescriptor.compare(sorted[2], sorted[1], by: []) == .orderedSame)
    }

    @Test func comparatorAppliesTheDirection() throws {
        let one = EvaluationFixtures.x(.integer16(1))
        let two = EvaluationFixtures.x(.double(2))
        #expect(try FetchSortDescriptor("x").compare(one, two) == .orderedAscending)
        #expect(try FetchSortDescriptor("x", ascending: false).compare(one, two) == .orderedDescending)
        #expect(
            FetchSortDescriptor("x", ascending: false).compare(AttributeValue.null, AttributeValue.integer16(0))
                == .orderedDescending)
    }

    @Test func sortingThroughAToManyRelationshipIsAnError() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try FetchSortDescriptor.sorted(
                [EvaluationFixtures.book(), EvaluationFixtures.book()], by: [FetchSortDescriptor("tags.name")]
            ).isEmpty
        }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("tags.name") == true)
    }

    @Test func unknownSortKeyIsAnError() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try FetchSortDescriptor("nope").compare(EvaluationFixtures.book(), EvaluationFixtures.book())
                == .orderedSame
        }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("'nope'") == true)
    }

    @Test func descriptorsAreValues() {
        let a = FetchSortDescriptor("name", ascending: false, comparison: .localizedStandard)
        #expect(a == FetchSortDescriptor("name", ascending: false, comparison: .localizedStandard))
        #expect(a != FetchSortDescriptor("name", comparison: .localizedStandard))
        #expect(Set([a, a]).count == 1)
    }
}
