import ArgumentParser
import Foundation

/// `strata demo`: builds a guidebook across three stores and tells what happens.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build a guidebook striped across SQLite, LMDB and XML stores and narrate each step.",
        discussion: """
            Builds countries, states, counties, cities and points of interest in an SQLite store, visits in \
            an LMDB store and tips in an XML store behind one context; saves; reopens; fetches with predicates \
            and sorts across stores; fires faults; deletes with cascade; kills a process in the middle of a save \
            across the three stores and completes the save on reopening; moves the SQLite store's data into a \
            binary store. The files stay in the directory for inspection.
            """)

    @Option(help: "Where to put the stores; a new temporary directory by default.")
    var directory: String?

    func run() throws {
        try reportingFailure {
            let folder =
                directory.map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("strata-demo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try GuidebookDemo(directory: folder).run()
        }
    }
}
