import Foundation
@_spi(StoreAuthoring) import Strata
import StrataBinary
import StrataSQLite
import StrataXML

/// Reads the input as a whole-file store of the target's type, or as the metadata property
/// list of an SQLite store.
enum StoreFileFuzzing {
    static func run(_ target: FuzzTarget, _ input: Data, in folder: URL) throws {
        switch target {
        case .xmlStore:
            let file = folder.appendingPathComponent("input.xml")
            try ModelFuzzing.write(input, to: file)
            _ = try XMLStore(fileURL: file).load()
        case .binaryStore:
            let file = folder.appendingPathComponent("input.binary")
            try ModelFuzzing.write(input, to: file)
            _ = try BinaryStore(fileURL: file).load()
        default:
            _ = try SQLiteMetadataPlist.decode(input, uuid: "FUZZ", file: "input.sqlite")
        }
    }
}
