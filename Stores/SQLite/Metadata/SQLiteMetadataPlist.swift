import Foundation
import Strata

/// The metadata of an SQLite store as Core Data keeps it: the store UUID in
/// `Z_METADATA.Z_UUID` and every other key in a binary property list in `Z_METADATA.Z_PLIST`
/// (COREDATA-FORMATS §C.3).
///
/// Core Data's keys are written as Core Data writes them, so that Core Data opens the store;
/// Strata adds the model's JSON form, its own version, and the application's keys with their
/// exact types (`StrataUserInfo`, JSON), while also writing each application key as a plain
/// property-list value that Core Data applications can read. Reading, the typed record wins;
/// keys only in the property list (written by Core Data) are read from their plain values.
package enum SQLiteMetadataPlist {
    private enum Key {
        static let storeType = "NSStoreType"
        static let versionHashes = "NSStoreModelVersionHashes"
        static let versionHashesVersion = "NSStoreModelVersionHashesVersion"
        static let versionIdentifiers = "NSStoreModelVersionIdentifiers"
        static let versionHashesDigest = "NSStoreModelVersionHashesDigest"
        static let versionChecksum = "NSStoreModelVersionChecksumKey"
        static let autoVacuumLevel = "_NSAutoVacuumLevel"
        static let frameworkVersion = "NSPersistenceFrameworkVersion"
        static let strataVersion = "StrataFrameworkVersion"
        static let modelJSON = "StrataModelJSON"
        static let userInfo = "StrataUserInfo"
        static let storeUUID = "NSStoreUUID"

        static let reserved: Set<String> = [
            storeType, versionHashes, versionHashesVersion, versionIdentifiers, versionHashesDigest,
            versionChecksum, autoVacuumLevel, frameworkVersion, strataVersion, modelJSON, userInfo, storeUUID,
        ]
    }

    /// The `NSPersistenceFrameworkVersion` Strata writes: that of the Core Data release (iOS 17,
    /// macOS 14) whose SQLite layout Strata's matches, as found in the newest fixture stores.
    static let coreDataFrameworkVersion = 1344

    /// The property list for `metadata`, in binary form, written by the core's binary
    /// property-list writer: Foundation's took most of a small save's time on Linux.
    static func encode(_ metadata: StoreMetadata) throws -> Data {
        var plist: [String: PropertyListValue] = [:]
        for (key, value) in metadata.userInfo {
            if let plain = plainValue(value) { plist[key] = plain }
        }
        plist[Key.storeType] = .string(metadata.storeType)
        plist[Key.versionHashes] = .dictionary(metadata.versionHashes.mapValues { .data(Data($0)) })
        plist[Key.versionHashesVersion] = .integer(Int64(metadata.versionHashesVersion))
        plist[Key.versionIdentifiers] = .array(metadata.versionIdentifiers.map { .string($0) })
        plist[Key.versionHashesDigest] = .string(Data(metadata.versionHashesDigest).base64EncodedString())
        plist[Key.versionChecksum] = .string(Data(metadata.versionChecksum).base64EncodedString())
        plist[Key.autoVacuumLevel] = .string("2")
        plist[Key.frameworkVersion] = .integer(Int64(coreDataFrameworkVersion))
        plist[Key.strataVersion] = .string(metadata.frameworkVersion)
        if let json = metadata.modelJSON { plist[Key.modelJSON] = .data(json) }
        if !metadata.userInfo.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            plist[Key.userInfo] = .data(try encoder.encode(metadata.userInfo))
        }
        return BinaryPropertyListWriter.data(.dictionary(plist))
    }

    /// Core Data's `NSPersistenceFrameworkVersion` and `NSStoreModelVersionHashesVersion` in the
    /// property list `data`; `nil` for each that is missing or not a number.
    static func coreDataVersions(_ data: Data) -> (framework: Int?, versionHashes: Int?) {
        let plist =
            (try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)) as? [String: Any]
        return (
            (plist?[Key.frameworkVersion] as? NSNumber)?.intValue,
            (plist?[Key.versionHashesVersion] as? NSNumber)?.intValue
        )
    }

    /// The metadata of the store `uuid` from its property list, which Core Data or Strata wrote.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/corrupt` naming `file` when the
    ///   property list is damaged or lacks Core Data's keys.
    package static func decode(_ data: Data, uuid: String, file: String) throws -> StoreMetadata {
        func corrupt(_ reason: String) -> StoreError {
            StoreError(code: .corrupt, message: "The metadata of the SQLite store at '\(file)' \(reason).")
        }
        let object: Any
        if data.starts(with: "bplist".utf8) {
            // Binary lists are read by the core's reader only: Foundation's stops the process
            // on some damaged ones (a set of values it cannot bridge).
            let parsed: PropertyListValue
            do {
                parsed = try BinaryPropertyList.parse(data, file: file)
            } catch {
                throw corrupt("is not a readable property list (\(error.message))")
            }
            if case .dictionary(let plist) = parsed, let metadata = try knownKeys(plist, uuid: uuid, corrupt) {
                return metadata
            }
            object = parsed.plainObject
        } else {
            do {
                object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            } catch {
                throw corrupt("is not a readable property list (\(error.localizedDescription))")
            }
        }
        guard let plist = object as? [String: Any] else { throw corrupt("is not a dictionary") }
        guard let storeType = plist[Key.storeType] as? String else { throw corrupt("has no \(Key.storeType)") }
        guard let hashes = plist[Key.versionHashes] as? [String: Any] else {
            throw corrupt("has no \(Key.versionHashes)")
        }
        var versionHashes: [String: [UInt8]] = [:]
        for (name, hash) in hashes {
            guard let bytes = hash as? Data else { throw corrupt("has a version hash for '\(name)' that is not data") }
            versionHashes[name] = Array(bytes)
        }
        var userInfo = try typedUserInfo(plist[Key.userInfo], corrupt)
        for (key, value) in plist where !Key.reserved.contains(key) && userInfo[key] == nil {
            if let plain = attributeValue(plainValue: value) { userInfo[key] = plain }
        }
        return StoreMetadata(
            storeType: storeType, storeIdentifier: uuid, versionHashes: versionHashes,
            versionIdentifiers: plist[Key.versionIdentifiers] as? [String] ?? [],
            versionHashesVersion: (plist[Key.versionHashesVersion] as? NSNumber)?.intValue
                ?? StoreMetadata.currentVersionHashesVersion,
            frameworkVersion: plist[Key.strataVersion] as? String
                ?? (plist[Key.frameworkVersion] as? NSNumber).map { "Core Data \($0)" } ?? "",
            modelJSON: plist[Key.modelJSON] as? Data, userInfo: userInfo)
    }

    /// The metadata in the property list `plist`, read by the core's binary property-list
    /// reader without bridging each value through `NSDictionary` (which copied every data value
    /// byte by byte);
    /// `nil` when a key is not of the type Strata writes, or a plain key has no typed value to
    /// stand for it: then the caller reads the list the general way.
    private static func knownKeys(
        _ plist: [String: PropertyListValue], uuid: String, _ corrupt: (String) -> StoreError
    ) throws -> StoreMetadata? {
        /// A key Strata writes, present with another type.
        struct OtherType: Error {}
        func field<T>(_ key: String, _ read: (PropertyListValue) -> T?) throws(OtherType) -> T? {
            guard let value = plist[key] else { return nil }
            guard let typed = read(value) else { throw OtherType() }
            return typed
        }
        do {
            guard let storeType = try field(Key.storeType, \.string),
                let hashes = try field(Key.versionHashes, \.dataByName)
            else { return nil }
            let userInfo = try typedUserInfo(try field(Key.userInfo, \.data), corrupt)
            guard plist.keys.allSatisfy({ Key.reserved.contains($0) || userInfo[$0] != nil }) else { return nil }
            let framework = try field(Key.frameworkVersion, \.integer)
            return StoreMetadata(
                storeType: storeType, storeIdentifier: uuid, versionHashes: hashes.mapValues { Array($0) },
                versionIdentifiers: try field(Key.versionIdentifiers, \.strings) ?? [],
                versionHashesVersion: try field(Key.versionHashesVersion, \.integer).map { Int($0) }
                    ?? StoreMetadata.currentVersionHashesVersion,
                frameworkVersion: try field(Key.strataVersion, \.string) ?? framework.map { "Core Data \($0)" } ?? "",
                modelJSON: try field(Key.modelJSON, \.data), userInfo: userInfo)
        } catch is OtherType {
            return nil
        }
    }

    private static func typedUserInfo(
        _ value: Any?, _ corrupt: (String) -> StoreError
    ) throws -> [String: AttributeValue] {
        guard let data = value as? Data else { return [:] }
        do {
            return try JSONDecoder().decode([String: AttributeValue].self, from: data)
        } catch {
            throw corrupt("has a \(Key.userInfo) that does not decode (\(error.localizedDescription))")
        }
    }

    /// `value` as a property-list value, when the property-list types can hold it.
    private static func plainValue(_ value: AttributeValue) -> PropertyListValue? {
        switch value {
        case .string(let text): .string(text)
        case .integer16(let number): .integer(Int64(number))
        case .integer32(let number): .integer(Int64(number))
        case .integer64(let number): .integer(number)
        case .double(let number): .real(number)
        case .boolean(let flag): .boolean(flag)
        case .date(let date): .date(date)
        case .binary(let data): .data(data)
        case .null, .decimal, .float, .uuid, .uri, .objectID: nil
        }
    }

    /// A property-list value as an attribute value; `nil` for arrays and dictionaries.
    private static func attributeValue(plainValue value: Any) -> AttributeValue? {
        if type(of: value) == Bool.self, let flag = value as? Bool { return .boolean(flag) }
        switch value {
        case let text as String: return .string(text)
        case let data as Data: return .binary(data)
        case let date as Date: return .date(date)
        case let number as NSNumber:
            if let whole = Int64(exactly: number.doubleValue), number.stringValue == "\(whole)" {
                return .integer64(whole)
            }
            return .double(number.doubleValue)
        default: return nil
        }
    }
}

extension PropertyListValue {
    /// The value as Foundation's property-list reader gives it: numbers as `NSNumber`, a
    /// Boolean as `Bool`, sets as arrays.
    fileprivate var plainObject: Any {
        switch self {
        case .null: NSNull()
        case .boolean(let flag): flag
        case .integer(let number): NSNumber(value: number)
        case .real(let number): NSNumber(value: number)
        case .date(let date): date
        case .data(let bytes): bytes
        case .string(let text): text
        case .uid(let number): NSNumber(value: number)
        case .array(let items), .set(let items): items.map(\.plainObject)
        case .dictionary(let entries): entries.mapValues(\.plainObject)
        }
    }

    /// The texts of an array holding only strings.
    fileprivate var strings: [String]? {
        guard let items = array else { return nil }
        let texts = items.compactMap(\.string)
        return texts.count == items.count ? texts : nil
    }

    /// The bytes of each value of a dictionary holding only data values.
    fileprivate var dataByName: [String: Data]? {
        guard let values = dictionary else { return nil }
        let bytes = values.compactMapValues(\.data)
        return bytes.count == values.count ? bytes : nil
    }
}
