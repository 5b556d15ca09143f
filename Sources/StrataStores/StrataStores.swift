// Importing StrataStores brings every built-in store module with it: their store types,
// typed options and descriptions (`.sqlite(at:options:)`, `.lmdb(at:options:)`, `.xml(at:)`,
// `.binary(at:)`).
@_exported import Strata
@_exported import StrataBinary
@_exported import StrataLMDB
@_exported import StrataSQLite
@_exported import StrataXML
