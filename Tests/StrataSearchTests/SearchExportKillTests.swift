import Foundation
import Strata
import StrataSearch
import StrataTestSupport
import Testing

/// A first export killed in the middle: the index holds whole batches with their position, and
/// the next exporter indexes exactly the objects the killed one had not.
@Suite struct SearchExportKillTests {
    @Test func anExportKilledMidwayGoesOnExactlyWhereItsLastBatchEnded() throws {
        let folder = try TemporaryDirectory()
        let total = 600
        let batchSize = 50
        do {
            let (_, _, context) = try SearchIndexExporterTests.library(in: folder)
            try PhotoLibraryModel.insertPhotos(0..<total, into: context)
        }
        let indexURL = folder.file("Photos.search")
        let worker = Process()
        worker.executableURL = BuiltProducts.executable("SearchExportWorker")
        worker.arguments = [folder.file("Photos.sqlite").path, indexURL.path, String(batchSize)]
        let output = Pipe()
        worker.standardOutput = output
        try worker.run()
        // Object 175 is in the fourth batch: the first three are written by then.
        var printed = 0
        while printed < 175 {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += chunk.filter { $0 == UInt8(ascii: "\n") }.count
        }
        kill(worker.processIdentifier, SIGKILL)
        #expect(worker.waitForTermination().wasSignalled, "The worker was killed before it finished")

        let (coordinator, store, _) = try SearchIndexExporterTests.library(in: folder)
        let kept = try SearchIndex(at: indexURL).count()
        #expect(kept >= 3 * batchSize && kept < total && kept % batchSize == 0, "\(kept) entries")
        let indexed = Locked(0)
        let exporter = try SearchIndexExporter(
            store: store, coordinator: coordinator, indexURL: indexURL, batchSize: batchSize
        ) { _, fields in
            indexed.withLock { $0 += 1 }
            return fields
        }
        try exporter.exportPendingChanges()
        #expect(indexed.withLock { $0 } == total - kept)
        #expect(try exporter.index.count() == total)
        #expect(try exporter.search("\"caption 599\"").count == 1)
    }
}
