import Foundation
import Strata
import StrataBinary
import StrataLMDB
import StrataPostgres
import StrataSQLite
import StrataXML

/// The measured stores: their type, file name, conversion target and raw floor. A store on a
/// server (PostgreSQL) keeps each folder's store in a schema of the benchmark's server
/// (``PostgresPlaces``), and its folders hold only the probes' output.
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
        StoreSetup(name: "PostgreSQL", type: .postgres, fileName: "", conversionTarget: nil),
        StoreSetup(name: "InMemory", type: .inMemory, fileName: "items.memory", conversionTarget: nil),
    ]

    /// Whether the store is on a server rather than in a file.
    var isOnServer: Bool { type == .postgres }

    /// Whether the store keeps its objects in memory only: each folder stands for a store the
    /// benchmark holds (``StrataSubject``), and there is no opening or file to measure.
    var isInMemory: Bool { type == .inMemory }

    /// The store of `folder`: its file in it, or its schema on the server.
    func url(in folder: URL) throws -> URL {
        isOnServer ? try PostgresPlaces.storeURL(of: folder) : folder.appendingPathComponent(fileName)
    }

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
        case "PostgreSQL":
            consume(
                try RawPostgres.select(
                    "SELECT \(RawPostgres.columns) FROM \(RawPostgres.table(folder))", try PostgresPlaces.server()))
        default: consume(try RawBinaryFormat().read(folder.appendingPathComponent(RawBinaryFormat().fileName)))
        }
    }
}
