import Foundation
import Strata
import StrataBinary
import StrataLMDB
import StrataSQLite
import StrataXML

/// The measured stores: their type, file name, conversion target and raw floor.
struct StoreSetup: Sendable {
    let name: String
    let type: StoreType
    let fileName: String
    /// The store `convert` migrates this one to, by name.
    let conversionTarget: String?

    static let all = [
        StoreSetup(name: "SQLite", type: .sqlite, fileName: "items.sqlite", conversionTarget: "LMDB"),
        StoreSetup(name: "LMDB", type: .lmdb, fileName: "items.lmdb", conversionTarget: "Binary"),
        StoreSetup(name: "XML", type: .xml, fileName: "items.xml", conversionTarget: nil),
        StoreSetup(name: "Binary", type: .binary, fileName: "items.binary", conversionTarget: nil),
    ]

    static func named(_ name: String) -> StoreSetup { all.first { $0.name == name } ?? all[0] }

    /// Reads every item of the raw floor of `store` from its file in `folder`.
    static func readRaw(store: String, folder: URL) throws {
        switch store {
        case "SQLite":
            consume(
                try RawSQLite.select(
                    "SELECT \(RawSQLite.columns) FROM item", path: folder.appendingPathComponent("items.sqlite").path))
        case "LMDB":
            consume(
                try RawLMDB.readAll(
                    from: try RawLMDBEnvironment(path: folder.appendingPathComponent("items.lmdb").path)))
        case "XML": consume(try RawXMLFormat().read(folder.appendingPathComponent(RawXMLFormat().fileName)))
        default: consume(try RawBinaryFormat().read(folder.appendingPathComponent(RawBinaryFormat().fileName)))
        }
    }
}
