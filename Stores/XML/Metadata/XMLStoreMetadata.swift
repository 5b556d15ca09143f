import Foundation
import Strata

/// The store metadata as an XML store keeps it: the UUID in `<UUID>` and every other key in
/// the property list inside `<metadata>` (COREDATA-FORMATS §D).
///
/// Core Data's keys are written as Core Data writes them. Strata adds its own version, the
/// model's JSON form, and the application's keys with their exact types (`StrataUserInfo`,
/// JSON); each application key whose value a property list can hold is also written as a plain
/// entry that Core Data applications read. Reading, the typed record wins; keys only in the
/// plain entries (written by Core Data) are read from them.
enum XMLStoreMetadata {
    /// The property-list keys this store reads and writes.
    private enum Key: String, CaseIterable {
        case versionHashes = "NSStoreModelVersionHashes"
        case versionHashesVersion = "NSStoreModelVersionHashesVersion"
        case versionIdentifiers = "NSStoreModelVersionIdentifiers"
        case versionHashesDigest = "NSStoreModelVersionHashesDigest"
        case frameworkVersion = "NSPersistenceFrameworkVersion"
        case strataVersion = "StrataFrameworkVersion"
        case modelJSON = "StrataModelJSON"
        case userInfo = "StrataUserInfo"

        /// Keys that are never application keys: this store's and the ones other stores write.
        static let reserved = Set(allCases.map(\.rawValue)).union(["NSStoreType", "NSStoreUUID"])
    }

    /// The property list for `metadata`.
    static func propertyList(_ metadata: StoreMetadata) throws -> PropertyListValue {
        var entries: [String: PropertyListValue] = [:]
        for (key, value) in metadata.userInfo where XMLStoreFormat.canHold(key) {
            if let plain = plainValue(value) { entries[key] = plain }
        }
        entries[Key.versionHashes.rawValue] = .dictionary(metadata.versionHashes.mapValues { .data(Data($0)) })
        entries[Key.versionHashesVersion.rawValue] = .integer(Int64(metadata.versionHashesVersion))
        entries[Key.versionIdentifiers.rawValue] = .array(metadata.versionIdentifiers.map(PropertyListValue.string))
        entries[Key.versionHashesDigest.rawValue] = .string(Data(metadata.versionHashesDigest).base64EncodedString())
        entries[Key.strataVersion.rawValue] = .string(metadata.frameworkVersion)
        if let json = metadata.modelJSON { entries[Key.modelJSON.rawValue] = .data(json) }
        if !metadata.userInfo.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            entries[Key.userInfo.rawValue] = .data(try encoder.encode(metadata.userInfo))
        }
        return .dictionary(entries)
    }

    /// The metadata of the store `uuid` of type `storeType` from its property list (an empty
    /// one when the file has none); `corrupt` makes the error for a damaged entry.
    static func metadata(
        _ plist: PropertyListValue, uuid: String, storeType: String, corrupt: (String) -> StoreError
    ) throws -> StoreMetadata {
        guard case .dictionary(let entries) = plist else { throw corrupt("the metadata is not a dictionary.") }
        var versionHashes: [String: [UInt8]] = [:]
        if let hashes = entries[Key.versionHashes.rawValue] {
            guard case .dictionary(let byEntity) = hashes else {
                throw corrupt("the metadata's \(Key.versionHashes.rawValue) is not a dictionary.")
            }
            for (name, hash) in byEntity {
                guard case .data(let bytes) = hash else {
                    throw corrupt("the metadata's version hash of '\(name)' is not data.")
                }
                versionHashes[name] = Array(bytes)
            }
        }
        var userInfo: [String: AttributeValue] = [:]
        if let json = data(entries[Key.userInfo.rawValue]) {
            do {
                userInfo = try JSONDecoder().decode([String: AttributeValue].self, from: json)
            } catch {
                throw corrupt(
                    "the metadata's \(Key.userInfo.rawValue) does not decode (\(error.localizedDescription)).")
            }
        }
        for (key, value) in entries where !Key.reserved.contains(key) && userInfo[key] == nil {
            if let plain = attributeValue(value) { userInfo[key] = plain }
        }
        var identifiers: [String] = []
        if case .array(let items) = entries[Key.versionIdentifiers.rawValue] {
            identifiers = items.compactMap { if case .string(let text) = $0 { text } else { nil } }
        }
        return StoreMetadata(
            storeType: storeType, storeIdentifier: uuid, versionHashes: versionHashes, versionIdentifiers: identifiers,
            versionHashesVersion: integer(entries[Key.versionHashesVersion.rawValue]).map(Int.init)
                ?? StoreMetadata.currentVersionHashesVersion,
            frameworkVersion: strataVersion(entries) ?? integer(entries[Key.frameworkVersion.rawValue]).map {
                "Core Data \($0)"
            }
                ?? "",
            modelJSON: data(entries[Key.modelJSON.rawValue]), userInfo: userInfo)
    }

    private static func strataVersion(_ entries: [String: PropertyListValue]) -> String? {
        if case .string(let text) = entries[Key.strataVersion.rawValue] { return text }
        return nil
    }

    private static func integer(_ value: PropertyListValue?) -> Int64? {
        if case .integer(let number) = value { return number }
        return nil
    }

    private static func data(_ value: PropertyListValue?) -> Data? {
        if case .data(let bytes) = value { return bytes }
        return nil
    }

    /// `value` as a plain property-list entry, when a property list can hold it in XML.
    private static func plainValue(_ value: AttributeValue) -> PropertyListValue? {
        switch value {
        case .string(let text) where XMLStoreFormat.canHold(text): .string(text)
        case .integer16(let number): .integer(Int64(number))
        case .integer32(let number): .integer(Int64(number))
        case .integer64(let number): .integer(number)
        case .double(let number) where number.isFinite: .real(number)
        case .boolean(let flag): .boolean(flag)
        case .date(let date): .date(date)
        case .binary(let bytes): .data(bytes)
        default: nil
        }
    }

    /// A plain property-list entry as an attribute value; `nil` for arrays and dictionaries.
    private static func attributeValue(_ value: PropertyListValue) -> AttributeValue? {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .integer64(number)
        case .real(let number): .double(number)
        case .boolean(let flag): .boolean(flag)
        case .data(let bytes): .binary(bytes)
        case .date(let date): .date(date)
        case .array, .dictionary: nil
        }
    }
}
