import Foundation
import Strata
import StrataSQLite
import StrataSearch
import StrataTestSupport

// The process SearchIndexExporterTests kills in the middle of a first export.
// `SearchExportWorker <store path> <index path> <batch size>` opens the SQLite store of
// PhotoLibraryModel photos with history on and exports it to the index, printing each object's
// URI as it is indexed and pausing a millisecond per object, so that a kill lands mid-export.
let arguments = CommandLine.arguments
guard arguments.count == 4, let batchSize = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: SearchExportWorker <store> <index> <batch size>\n".utf8))
    exit(2)
}
do {
    let coordinator = try PersistentStoreCoordinator(model: PhotoLibraryModel.make(), storeTypes: [.sqlite])
    let store = try coordinator.addStore(
        type: StoreType.sqlite.name, at: URL(fileURLWithPath: arguments[1]),
        options: StoreOptions(tracksPersistentHistory: true))
    let exporter = try SearchIndexExporter(
        store: store, coordinator: coordinator, indexURL: URL(fileURLWithPath: arguments[2]), batchSize: batchSize
    ) { photo, fields in
        FileHandle.standardOutput.write(Data("\(photo.objectID.uriRepresentation.absoluteString)\n".utf8))
        Thread.sleep(forTimeInterval: 0.001)
        return fields
    }
    try exporter.exportPendingChanges()
    print("exported")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
