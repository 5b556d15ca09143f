import Foundation
import Strata
import StrataBinary
import StrataLMDB
import StrataSQLite
import StrataXML

extension PersistentStoreDescription {
    /// A description of an SQLite store at `url`.
    public static func sqlite(at url: URL, configuration: String? = nil) -> PersistentStoreDescription {
        PersistentStoreDescription(type: SQLiteStore.storeTypeName, url: url, configuration: configuration)
    }

    /// A description of an LMDB store at `url`.
    public static func lmdb(at url: URL, configuration: String? = nil) -> PersistentStoreDescription {
        PersistentStoreDescription(type: LMDBStore.storeTypeName, url: url, configuration: configuration)
    }

    /// A description of an XML store at `url`.
    public static func xml(at url: URL, configuration: String? = nil) -> PersistentStoreDescription {
        PersistentStoreDescription(type: StoreType.xmlName, url: url, configuration: configuration)
    }

    /// A description of a binary store at `url`.
    public static func binary(at url: URL, configuration: String? = nil) -> PersistentStoreDescription {
        PersistentStoreDescription(type: BinaryStore.typeName, url: url, configuration: configuration)
    }
}
