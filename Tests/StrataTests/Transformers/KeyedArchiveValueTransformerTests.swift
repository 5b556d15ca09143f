import Foundation
import Testing

@testable import Strata

/// Core Data's keyed-archive transformer: values archived with `NSKeyedArchiver` read back as
/// Swift values, and archives it cannot read are refused with a message saying why.
@Suite struct KeyedArchiveValueTransformerTests {
    let transformer = KeyedArchiveValueTransformer()

    @Test func everyCommonValueTypeReadsBackAsItsSwiftType() throws {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let value: [String: any Sendable] = [
            "string": "Ström ✓", "integer": 42, "negative": -7, "double": 2.5, "flag": true,
            "date": Date(timeIntervalSinceReferenceDate: 526_927_588.5), "data": Data([0, 1, 254, 255]),
            "uuid": uuid, "url": URL(string: "https://example.com/a?b=c")!,
            "list": ["a", 1, ["nested": false]] as [any Sendable],
        ]
        let data = try transformer.data(from: value)
        #expect(data.starts(with: Array("bplist00".utf8)))
        let read = try #require(try transformer.value(from: data) as? [String: any Sendable])
        #expect(Set(read.keys) == Set(value.keys))
        #expect(read["string"] as? String == "Ström ✓")
        #expect(read["integer"] as? Int == 42)
        #expect(read["negative"] as? Int == -7)
        #expect(read["double"] as? Double == 2.5)
        #expect(read["flag"] as? Bool == true)
        #expect(read["date"] as? Date == Date(timeIntervalSinceReferenceDate: 526_927_588.5))
        #expect(read["data"] as? Data == Data([0, 1, 254, 255]))
        #expect(read["uuid"] as? UUID == uuid)
        #expect(read["url"] as? URL == URL(string: "https://example.com/a?b=c")!)
        let list = try #require(read["list"] as? [any Sendable])
        #expect(list.count == 3)
        #expect(list[0] as? String == "a")
        #expect(list[1] as? Int == 1)
        #expect((list[2] as? [String: any Sendable])?["nested"] as? Bool == false)
    }

    @Test func aSingleStringIsItsOwnArchive() throws {
        let data = try transformer.data(from: "plain")
        #expect(try transformer.value(from: data) as? String == "plain")
    }

    @Test func aSwiftTypeWithNoFoundationClassIsRefusedNamingIt() throws {
        struct Palette: Sendable {}
        let error = try #require(throws: ValueTransformerError.self) { try transformer.data(from: Palette()) }
        #expect(error.message.contains("Palette"))
    }

    @Test func dataThatIsNotAKeyedArchiveIsRefused() throws {
        let error = try #require(throws: ValueTransformerError.self) {
            try transformer.value(from: Data("not a property list".utf8))
        }
        #expect(error.message.contains("bplist00"))
    }

    @Test func anArchiveOfAnotherClassIsRefusedNamingTheClass() throws {
        let data = try NSKeyedArchiver.archivedData(
            withRootObject: NSAffineTransform(), requiringSecureCoding: false)
        let error = try #require(throws: ValueTransformerError.self) { try transformer.value(from: data) }
        #expect(error.message.contains("NSAffineTransform"))
    }

    @Test func anArchiveThatContainsItselfIsRefusedNotFollowedForever() throws {
        let data = keyedArchive(
            [
                .string("$null"), .dictionary(["$class": .uid(2), "NS.objects": .array([.uid(1)])]),
                archivedClass("NSArray"),
            ],
            root: 1)
        let error = try #require(throws: ValueTransformerError.self) { try transformer.value(from: data) }
        #expect(error.message.contains("contains itself"))
    }

    @Test func equalNumbersAndBooleansStayApart() throws {
        let data = try transformer.data(from: [1, true, 1.0, "1"] as [any Sendable])
        let read = try #require(try transformer.value(from: data) as? [any Sendable])
        #expect(read[0] as? Int == 1)
        #expect(read[1] as? Bool == true)
        #expect(read[2] as? Double == 1.0)
        #expect(read[3] as? String == "1")
    }

    @Test func theArchiveIsLaidOutAsNSKeyedArchiverLaysItOut() throws {
        let data = try transformer.data(from: ["title": "Atlas", "pages": 320] as [String: any Sendable])
        let root = try #require(try BinaryPropertyList.parse(data, file: "test").dictionary)
        #expect(root["$archiver"] == .string("NSKeyedArchiver"))
        #expect(root["$version"] == .integer(100_000))
        let objects = try #require(root["$objects"]?.array)
        #expect(objects.first == .string("$null"))
        #expect(objects.contains(.string("Atlas")))
        #expect(objects.contains(.integer(320)))
        let archive = try KeyedArchive(data: data, file: "test")
        let dictionary = try archive.topObject()
        #expect(dictionary.classHierarchy == ["NSDictionary", "NSObject"])
        #expect(try dictionary.entries() == ["title": .string("Atlas"), "pages": .integer(320)])
    }

    @Test func longStringsAndLargeCollectionsUseTheLongForms() throws {
        let text = String(repeating: "Strata ストラタ ", count: 100)
        let list = (0..<300).map { $0 * 1_000_000 } as [any Sendable]
        let data = try transformer.data(from: ["text": text, "list": list] as [String: any Sendable])
        let read = try #require(try transformer.value(from: data) as? [String: any Sendable])
        #expect(read["text"] as? String == text)
        #expect((read["list"] as? [any Sendable])?.compactMap { $0 as? Int } == (0..<300).map { $0 * 1_000_000 })
    }

    @Test func everyRegistryHoldsItUnderApplesNames() throws {
        let registry = ValueTransformerRegistry()
        for name in [ValueTransformerRegistry.secureUnarchiveFromData, ValueTransformerRegistry.keyedUnarchiveFromData]
        {
            let registered = try #require(registry.transformer(named: name))
            #expect(try registered.value(from: try registered.data(from: [1, 2])) as? [any Sendable] != nil)
        }
    }
}

/// Archives that share objects decode each object once.
@Suite struct KeyedArchiveSharingTests {
    @Test func anArchiveReferringToOneObjectManyTimesDecodesInItsSize() throws {
        // Object 2 + k is an array holding object 3 + k twice; the last holds a string. Decoded
        // without sharing, that is 2^60 arrays.
        let depth = 60
        var objects: [PropertyListValue] = [.string("$null"), archivedClass("NSArray")]
        for level in 0..<depth {
            objects.append(.dictionary(["$class": .uid(1), "NS.objects": .array([.uid(3 + level), .uid(3 + level)])]))
        }
        objects.append(.string("leaf"))
        let data = keyedArchive(objects, root: 2)
        var value = try KeyedArchiveValueTransformer().value(from: data)
        for _ in 0..<depth {
            let list = try #require(value as? [any Sendable])
            #expect(list.count == 2)
            value = list[1]
        }
        #expect(value as? String == "leaf")
    }

    @Test func aURLWithABaseReadsAsTheAbsoluteURL() throws {
        let data = keyedArchive(
            [
                .string("$null"), archivedClass("NSURL"),
                .dictionary(["$class": .uid(1), "NS.base": .uid(3), "NS.relative": .uid(4)]),
                .dictionary(["$class": .uid(1), "NS.base": .uid(0), "NS.relative": .uid(5)]),
                .string("b/c.txt"), .string("https://example.com/a/"),
            ], root: 2)
        #expect(
            try KeyedArchiveValueTransformer().value(from: data) as? URL == URL(string: "https://example.com/a/b/c.txt")
        )
    }
}

/// A keyed archive of `objects` whose root is object `root`, written as `NSKeyedArchiver` writes one.
func keyedArchive(_ objects: [PropertyListValue], root: Int) -> Data {
    BinaryPropertyListWriter.data(
        .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
            "$top": .dictionary(["root": .uid(root)]), "$objects": .array(objects),
        ]))
}

/// The class description of `name`, a direct subclass of `NSObject`.
func archivedClass(_ name: String) -> PropertyListValue {
    .dictionary(["$classname": .string(name), "$classes": .array([.string(name), .string("NSObject")])])
}
