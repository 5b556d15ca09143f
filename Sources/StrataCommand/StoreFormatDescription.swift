import Strata
import StrataBinary
import StrataLMDB
import StrataSQLite
import StrataXML

/// The line `strata inspect` prints about the format of a store file: the version of the
/// format each store type records in the file.
enum StoreFormatDescription {
    /// What the file of `file` says about its format, by store type.
    static func describe(_ file: StoreFile) throws -> String {
        switch file.typeName {
        case SQLiteStore.storeTypeName:
            let format = try SQLiteStore.fileFormat(ofStoreAt: file.url)
            return "Format: Core Data's SQLite schema, Z_METADATA version \(format.metadataVersion), "
                + "version hashes version \(format.versionHashesVersion.map(String.init) ?? "missing"), "
                + "Core Data framework version \(format.coreDataFrameworkVersion.map(String.init) ?? "missing"); "
                + "SQLite journal mode \(format.journalMode), tables " + format.tables.joined(separator: ", ")
        case LMDBStore.storeTypeName:
            return "Format: Strata's LMDB layout version \(try LMDBStore.formatVersion(ofStoreAt: file.url))"
        case StoreType.xmlName:
            let version = try XMLStore.formatVersion(ofStoreAt: file.url)
            let hex = String(version, radix: 16, uppercase: true)
            let padded = String(repeating: "0", count: max(0, 8 - hex.count)) + hex
            return "Format: Core Data's XML store version \(version) (0x\(padded))"
        case BinaryStore.typeName:
            return "Format: Strata's binary store version \(try BinaryStore.formatVersion(ofStoreAt: file.url))"
        default:
            return "Format: unknown for a \(file.typeName) store"
        }
    }
}
