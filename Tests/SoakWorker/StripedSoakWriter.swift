import Foundation
import Strata
import StrataLMDB
import StrataSQLite
import StrataTestSupport

/// One writer of `StripedTwoWriterSoak`: saves a city and a visit per save across the stores of
/// `folder` until `seconds` have passed, printing `ack <serial>` after each save.
enum StripedSoakWriter {
    static func run(folder: URL, writer: String, seconds: Double) throws {
        let deadline = Date().addingTimeInterval(seconds)
        let coordinator = try StripedTwoWriterSoak.open(folder, sqlite: .sqlite, lmdb: .lmdb)
        var serial = try StripedTwoWriterSoak.serials(of: writer, in: coordinator).cities.last ?? -1
        let context = ManagedObjectContext(coordinator: coordinator)
        while Date() < deadline {
            serial += 1
            try context.performAndWait {
                for entity in ["City", "Visit"] {
                    let object = try context.insertNewObject(forEntityName: entity)
                    try object.setValue(.string(writer), forKey: "writer")
                    try object.setValue(.integer64(serial), forKey: "serial")
                }
                do {
                    try context.save()
                } catch let error as ContextError {
                    // The store's own words: a merge conflict's list may be empty.
                    throw StoreError(
                        code: .io, message: "\(error) (\(error.underlying.map { "\($0)" } ?? "no underlying error"))")
                }
            }
            FileHandle.standardOutput.write(Data("ack \(serial)\n".utf8))
        }
    }
}
