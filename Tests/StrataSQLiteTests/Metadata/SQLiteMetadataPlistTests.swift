import Foundation
import Strata
import Testing

@testable import StrataSQLite

/// Store metadata goes into `Z_METADATA.Z_PLIST` with Core Data's keys, and comes back whole.
@Suite struct SQLiteMetadataPlistTests {
    static let metadata = StoreMetadata(
        storeType: "SQLite", storeIdentifier: "6A2E6B4C-0D5F-4E1A-9C7B-2F3E4D5C6B7A",
        versionHashes: ["Post": Array(repeating: 7, count: 32), "Tag": Array(0..<32)], versionIdentifiers: ["1"],
        versionHashesVersion: 3, frameworkVersion: "0.1.0", modelJSON: Data("{}".utf8),
        userInfo: [
            "name": "guide", "count": .integer64(3), "ratio": .double(0.5), "flag": .boolean(true),
            "when": .date(Date(timeIntervalSinceReferenceDate: 12.5)), "blob": .binary(Data([1, 2])),
            "price": .decimal(Decimal(string: "1.10")!), "id": .uuid(UUID()), "small": .integer16(2),
        ])

    @Test func metadataRoundTripsWithExactTypes() throws {
        let data = try SQLiteMetadataPlist.encode(Self.metadata)
        #expect(data.prefix(8) == Data("bplist00".utf8))
        let back = try SQLiteMetadataPlist.decode(data, uuid: Self.metadata.storeIdentifier, file: "a.sqlite")
        #expect(back == Self.metadata)
    }

    @Test func coreDataKeysAreWrittenAsCoreDataWritesThem() throws {
        let data = try SQLiteMetadataPlist.encode(Self.metadata)
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any])
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect((plist["NSStoreModelVersionHashes"] as? [String: Any])?["Tag"] as? Data == Data(0..<32))
        #expect((plist["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue == 3)
        #expect(plist["NSStoreModelVersionIdentifiers"] as? [String] == ["1"])
        #expect(
            plist["NSStoreModelVersionHashesDigest"] as? String
                == Data(Self.metadata.versionHashesDigest).base64EncodedString())
        #expect(plist["_NSAutoVacuumLevel"] as? String == "2")
        #expect(plist["NSPersistenceFrameworkVersion"] as? Int == 1344)
        #expect(plist["name"] as? String == "guide")
        #expect(plist["NSStoreUUID"] == nil)
    }

    @Test func keysCoreDataAddedAreReadFromTheirPlainValues() throws {
        var plist: [String: Any] = [
            "NSStoreType": "SQLite", "NSStoreModelVersionHashes": ["Post": Data(count: 32)],
            "NSPersistenceFrameworkVersion": 1344, "PLModelVersion": 17, "label": "x",
        ]
        plist["NSStoreModelVersionIdentifiers"] = [""]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let metadata = try SQLiteMetadataPlist.decode(data, uuid: "U", file: "b.sqlite")
        #expect(metadata.userInfo == ["PLModelVersion": .integer64(17), "label": "x"])
        #expect(metadata.frameworkVersion == "Core Data 1344")
        #expect(metadata.versionIdentifiers == [""])
    }

    @Test func aCoreDataKeyOfAnUnexpectedTypeIsReadAsBefore() throws {
        let plist: [String: Any] = [
            "NSStoreType": "SQLite", "NSStoreModelVersionHashes": ["Post": Data(count: 32)],
            "NSStoreModelVersionHashesVersion": "three", "NSStoreModelVersionIdentifiers": "one",
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let metadata = try SQLiteMetadataPlist.decode(data, uuid: "U", file: "d.sqlite")
        #expect(metadata.versionHashesVersion == StoreMetadata.currentVersionHashesVersion)
        #expect(metadata.versionIdentifiers.isEmpty && metadata.versionHashes["Post"] == Array(repeating: 0, count: 32))
    }

    @Test(arguments: [Data("not a plist".utf8), Data("bplist00".utf8)])
    func damagedMetadataIsATypedErrorNamingTheFile(_ data: Data) {
        #expect {
            _ = try SQLiteMetadataPlist.decode(data, uuid: "U", file: "/x/c.sqlite")
        } throws: { error in
            (error as? StoreError)?.code == .corrupt && "\(error)".contains("/x/c.sqlite")
        }
    }
}
