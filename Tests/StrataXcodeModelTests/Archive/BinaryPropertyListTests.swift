import Foundation
import Strata
import Testing

@testable import StrataXcodeModel

/// ``BinaryPropertyList`` reads every marker Apple's writer uses, the compiled models in the
/// fixtures, and refuses damaged files with an error naming the file.
@Suite struct BinaryPropertyListTests {
    private typealias Bytes = BinaryPropertyListBytes

    private static let fixtures = "alemar11-CoreDataPlus/Tests/Resources/SampleModel/Fixtures/"

    private func parse(_ bytes: [UInt8], file: String = "test.plist") throws -> PropertyListValue {
        try BinaryPropertyList.parse(Data(bytes), file: file)
    }

    /// The error parsing `bytes` as the file `damaged.plist` throws; records an issue when it
    /// throws none.
    private func parseError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> ModelError? {
        return #expect(throws: ModelError.self, sourceLocation: sourceLocation) {
            try BinaryPropertyList.parse(Data(bytes), file: "damaged.plist")
        }
    }

    /// `parts` one after the other.
    private func joined(_ parts: [UInt8]...) -> [UInt8] {
        parts.flatMap { $0 }
    }

    /// `count` zero bytes.
    private func zeros(_ count: Int) -> [UInt8] {
        Array(repeating: 0, count: count)
    }

    // MARK: - Fixtures

    @Test func compiledModelIsAKeyedArchive() throws {
        let url = FixturePaths.url(Self.fixtures + "SampleModel.momd/SampleModel.mom")
        let value = try BinaryPropertyList.parse(Data(contentsOf: url), file: url.path)
        let archive = try #require(value.dictionary)
        #expect(archive["$archiver"]?.string == "NSKeyedArchiver")
        #expect(archive["$version"]?.integer == 100_000)
        let objects = try #require(archive["$objects"]?.array)
        #expect(objects.count == 69)
        #expect(objects[0] == .string("$null"))
        #expect(objects[3] == .string("Car"))
        #expect(objects[18] == .boolean(false))
        #expect(archive["$top"] == .dictionary(["root": .uid(1)]))
        let root = try #require(objects[1].dictionary)
        #expect(root["NSEntities"] == .uid(2))
        #expect(root["$class"] == .uid(68))
    }

    /// The mapping model uses 2-byte offsets and 2-byte object references.
    @Test func compiledMappingModelIsAKeyedArchive() throws {
        let url = FixturePaths.url(Self.fixtures + "V2toV3.cdm")
        let value = try BinaryPropertyList.parse(Data(contentsOf: url), file: url.path)
        let archive = try #require(value.dictionary)
        #expect(archive["$archiver"]?.string == "NSKeyedArchiver")
        let objects = try #require(archive["$objects"]?.array)
        #expect(objects.count == 286)
        #expect(objects[4] == .string("CarToCar"))
        #expect(objects[6].data?.count == 32)
        let mapping = try #require(objects[3].dictionary)
        #expect(mapping["NSMappingType"] == .integer(1))
        let classDescription = try #require(objects[285].dictionary)
        #expect(classDescription["$classname"] == .string("NSMappingModel"))
        #expect(classDescription["$classes"] == .array([.string("NSMappingModel"), .string("NSObject")]))
    }

    // MARK: - Markers

    @Test func integersOfEverySize() throws {
        let objects: [[UInt8]] = [
            Bytes.array(Array(1...8)),
            Bytes.integer(255, size: 1),
            Bytes.integer(256, size: 2),
            Bytes.integer(3_000_000_000, size: 4),
            Bytes.integer(-2, size: 8),
            Bytes.integer(Int64.max, size: 8),
            Bytes.integer(-5, size: 16),
            Bytes.integer(1 << 40, size: 16),
            Bytes.integer(0, size: 1),
        ]
        let expected: [PropertyListValue] = [
            .integer(255), .integer(256), .integer(3_000_000_000), .integer(-2), .integer(Int64.max), .integer(-5),
            .integer(1 << 40), .integer(0),
        ]
        #expect(try parse(Bytes.file(objects)) == .array(expected))
    }

    @Test func realsDatesAndSingletons() throws {
        let objects: [[UInt8]] = [
            Bytes.array(Array(1...7)),
            Bytes.real(-0.25),
            Bytes.float(1.5),
            Bytes.date(86_400),
            [0x00],
            [0x08],
            [0x09],
            Bytes.real(1e300),
        ]
        let expected: [PropertyListValue] = [
            .real(-0.25), .real(1.5), .date(Date(timeIntervalSinceReferenceDate: 86_400)), .null, .boolean(false),
            .boolean(true), .real(1e300),
        ]
        #expect(try parse(Bytes.file(objects)) == .array(expected))
    }

    @Test func stringsDataAndUIDs() throws {
        let objects: [[UInt8]] = [
            Bytes.array(Array(1...7)),
            Bytes.ascii("Car"),
            Bytes.utf16("Größe → 大きさ"),
            Bytes.ascii(""),
            Bytes.data([1, 2, 3]),
            Bytes.uid(7),
            Bytes.uid(258, size: 2),
            Bytes.utf16("😀"),
        ]
        let expected: [PropertyListValue] = [
            .string("Car"), .string("Größe → 大きさ"), .string(""), .data(Data([1, 2, 3])), .uid(7), .uid(258),
            .string("😀"),
        ]
        #expect(try parse(Bytes.file(objects)) == .array(expected))
    }

    @Test func containers() throws {
        let objects: [[UInt8]] = [
            Bytes.dictionary(keys: [1, 2, 3], values: [4, 5, 6]),
            Bytes.ascii("number"),
            Bytes.ascii("list"),
            Bytes.ascii("set"),
            Bytes.integer(42, size: 1),
            Bytes.array([4, 1, 7]),
            Bytes.set([4, 8]),
            Bytes.dictionary(keys: [], values: []),
            Bytes.array([]),
        ]
        let expected: PropertyListValue = .dictionary([
            "number": .integer(42),
            "list": .array([.integer(42), .string("number"), .dictionary([:])]),
            "set": .set([.integer(42), .array([])]),
        ])
        let value = try parse(Bytes.file(objects))
        #expect(value == expected)
        #expect(value.dictionary?["number"]?.real == 42)
        #expect(value.dictionary?["list"]?.array?.count == 3)
        #expect(value.dictionary?["set"]?.array == nil)
    }

    /// Counts of 15 and more follow the marker as an integer object.
    @Test func extendedCounts() throws {
        let long = String(repeating: "abcdefghij", count: 3)
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let objects: [[UInt8]] = [
            Bytes.array(Array(1...4) + Array(repeating: 4, count: 12)),
            Bytes.ascii(long),
            Bytes.utf16(String(repeating: "é", count: 15)),
            Bytes.data(bytes),
            Bytes.ascii(String(repeating: "x", count: 15)),
        ]
        let value = try parse(Bytes.file(objects, offsetSize: 2))
        let elements = try #require(value.array)
        #expect(elements.count == 16)
        #expect(elements[0] == .string(long))
        #expect(elements[1] == .string(String(repeating: "é", count: 15)))
        #expect(elements[2] == .data(Data(bytes)))
        #expect(elements[3...].allSatisfy { $0 == .string(String(repeating: "x", count: 15)) })
    }

    @Test func wideOffsetsAndReferences() throws {
        let objects: [[UInt8]] = [
            Bytes.array([1, 2], referenceSize: 2),
            Bytes.ascii("first"),
            Bytes.integer(-1, size: 8),
        ]
        let value = try parse(Bytes.file(objects, top: 0, offsetSize: 4, referenceSize: 2))
        #expect(value == .array([.string("first"), .integer(-1)]))
    }

    @Test func topObjectNeedNotBeFirst() throws {
        let objects: [[UInt8]] = [Bytes.ascii("unused"), Bytes.array([2]), Bytes.integer(3, size: 1)]
        #expect(try parse(Bytes.file(objects, top: 1)) == .array([.integer(3)]))
    }

    /// A few thousand objects, shared between containers, parse quickly.
    @Test func largeListsParseQuickly() throws {
        let count = 20_000
        var objects: [[UInt8]] = [Bytes.array(Array(1...count), referenceSize: 2)]
        for index in 1...count {
            let text = Bytes.ascii("value \(index % 100)")
            objects.append(index.isMultiple(of: 2) ? text : Bytes.array([2, 4], referenceSize: 2))
        }
        let start = ContinuousClock.now
        let value = try parse(Bytes.file(objects, offsetSize: 4, referenceSize: 2))
        #expect(value.array?.count == count)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    // MARK: - Damaged files

    @Test func wrongHeaderIsRefused() throws {
        var bytes = Bytes.file([Bytes.ascii("a")])
        bytes[7] = UInt8(ascii: "1")
        let error = try #require(parseError(bytes))
        #expect(error.code == .malformedFile)
        #expect(error.filePath == "damaged.plist")
        #expect(error.message.hasPrefix("'damaged.plist', byte offset 0: "))
        #expect(error.message.contains("bplist00"))
        #expect(parseError(Array("<?xml version=\"1.0\"?>".utf8))?.code == .malformedFile)
        #expect(parseError([])?.code == .malformedFile)
    }

    @Test func truncatedFilesAreRefused() throws {
        let whole = Bytes.file([Bytes.array([1]), Bytes.ascii("abc")])
        for length in [8, 20, 39, whole.count - 1, whole.count - 20] {
            let error = try #require(parseError(Array(whole.prefix(length))), "length \(length)")
            #expect(error.code == .malformedFile)
            #expect(error.message.contains("'damaged.plist'"))
        }
    }

    @Test func badTrailersAreRefused() throws {
        let objects = [Bytes.array([1]), Bytes.ascii("abc")]
        let cases: [(bytes: [UInt8], reason: String)] = [
            (Bytes.file(objects, offsetSize: 0), "offset size"),
            (Bytes.file(objects, referenceSize: 9), "reference size"),
            (Bytes.file(objects, top: 2), "top object"),
        ]
        for (bytes, reason) in cases {
            let error = try #require(parseError(bytes))
            #expect(error.code == .malformedFile)
            #expect(error.message.contains(reason), "\(error.message)")
        }
        var noObjects = Bytes.file(objects)
        noObjects[noObjects.count - 17] = 0
        #expect(parseError(noObjects)?.message.contains("the trailer gives 0 objects") == true)
        var tableOutside = Bytes.file(objects)
        tableOutside[tableOutside.count - 1] = 250
        #expect(parseError(tableOutside)?.message.contains("offset table") == true)
        var tableOverlapsTrailer = Bytes.file(objects)
        tableOverlapsTrailer[tableOverlapsTrailer.count - 17] = 3
        #expect(parseError(tableOverlapsTrailer)?.message.contains("offset table") == true)
    }

    @Test func offsetOutsideTheObjectsIsRefused() throws {
        var bytes = Bytes.file([Bytes.array([1]), Bytes.ascii("abc")])
        let tableStart = bytes.count - 32 - 2
        bytes[tableStart + 1] = 200
        let error = try #require(parseError(bytes))
        #expect(error.code == .malformedFile)
        #expect(error.message.hasPrefix("'damaged.plist', byte offset \(tableStart + 1): "))
        #expect(error.message.contains("object 1 at byte offset 200"))
    }

    @Test func referenceToAMissingObjectIsRefused() throws {
        let error = try #require(parseError(Bytes.file([Bytes.array([1, 9]), Bytes.ascii("abc")])))
        #expect(error.code == .malformedFile)
        #expect(error.message.hasPrefix("'damaged.plist', byte offset 10: "))
        #expect(error.message.contains("object 9, but the file has 2 objects"))
    }

    @Test func containersContainingThemselvesAreRefused() throws {
        let selfReference = try #require(parseError(Bytes.file([Bytes.array([0])])))
        #expect(selfReference.code == .malformedFile)
        #expect(selfReference.message.contains("object 0 contains itself"))
        let objects = [Bytes.array([1]), Bytes.dictionary(keys: [2], values: [0]), Bytes.ascii("k")]
        let loop = try #require(parseError(Bytes.file(objects)))
        #expect(loop.message.contains("object 0 contains itself"))
    }

    @Test func deepNestingIsRefused() throws {
        let depth = 300
        var objects = (0..<depth).map { Bytes.array([$0 + 1], referenceSize: 2) }
        objects.append(Bytes.ascii("bottom"))
        let error = try #require(parseError(Bytes.file(objects, offsetSize: 2, referenceSize: 2)))
        #expect(error.code == .malformedFile)
        #expect(error.message.contains("nested more than \(BinaryPropertyList.maximumDepth) deep"))
    }

    @Test func contentsRunningPastTheObjectsAreRefused() throws {
        let cases: [[UInt8]] = [
            [0x53, 0x61],  // an ASCII string of 3 bytes holding 1
            [0x62, 0x00, 0x61],  // a UTF-16 string of 2 units holding 1.5
            [0x44, 0x01],  // data of 4 bytes holding 1
            [0x13, 0x00, 0x00],  // an 8-byte integer holding 2 bytes
            [0x23, 0x00],  // an 8-byte real holding 1 byte
            [0x33],  // a date holding nothing
            [0x5F],  // an extended count that is missing
            [0x5F, 0x10],  // an extended count without its byte
            [0x5F, 0x50],  // an extended count that is not an integer
            [0x5F, 0x10, 0xFF],  // an extended count larger than the file
            [0x83, 0x00],  // a 4-byte UID holding 1 byte
            [0xA3, 0x00],  // an array of 3 references holding 1
            [0xD1, 0x00],  // a dictionary of 1 entry holding 1 reference
        ]
        for object in cases {
            let error = try #require(parseError(Bytes.file([object])), "\(object)")
            #expect(error.code == .malformedFile)
            #expect(error.message.hasPrefix("'damaged.plist', byte offset "), "\(error.message)")
        }
    }

    @Test func unknownMarkersAndOddValuesAreRefused() throws {
        let cases: [(objects: [[UInt8]], reason: String)] = [
            ([[0x70]], "unknown object marker 0x70"),
            ([[0x0F]], "unknown object marker 0xf"),
            ([joined([0x34], zeros(16))], "unknown object marker 0x34"),
            ([[0x21, 0x00, 0x00]], "real number of 2 bytes"),
            ([joined([0x15], zeros(32))], "integer of 32 bytes"),
            ([joined([0x14], zeros(7), [0x01], zeros(8))], "64 bits"),
            ([joined([0x14], zeros(8), [0x80], zeros(7))], "64 bits"),
            ([joined([0x88], zeros(9))], "UID) of 9 bytes"),
            ([Bytes.dictionary(keys: [1], values: [1]), Bytes.integer(1, size: 1)], "key is an integer"),
        ]
        for (objects, reason) in cases {
            let error = try #require(parseError(Bytes.file(objects)), "\(reason)")
            #expect(error.code == .malformedFile)
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }
}
