import Strata
import StrataBinary
import StrataLMDB
import StrataSQLite
import StrataXML

extension StoreType {
    /// Every built-in store type with a file: SQLite, LMDB, XML and binary. In-memory stores
    /// are registered on every coordinator already.
    ///
    /// ```swift
    /// let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
    /// ```
    public static let builtInFileTypes: [StoreType] = [.sqlite, .lmdb, .xml, .binary]
}
