import ArgumentParser
import Foundation
import Strata
import StrataSearch

/// `strata search STORE QUERY`: the objects of a store a full-text query finds.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find a store's objects by the text of the attributes its model indexes for search.",
        discussion: """
            By default the objects are indexed afresh into a temporary index, so that the hits always match what \
            the store holds. With --index, the index is kept in that file and brought up to date from the store's \
            persistent history, which is fast but misses saves made without history. The store itself is opened \
            read-only. The query takes FTS5's syntax: words an object must all hold, "a phrase", prefix*, OR, NOT \
            and parentheses. Each hit shows its title, entity, score, a snippet with the matched terms in [ ] and \
            the object's URI.
            """)

    @Argument(help: "The store file, or a PostgreSQL store's URL (postgresql://user@host:port/db?schema=name).")
    var store: String

    @Argument(help: "What to look for.")
    var query: String

    @OptionGroup var modelOptions: ModelOptions

    @Option(
        help: ArgumentHelp(
            "A search index file to keep and bring up to date from the store's history.", valueName: "path"))
    var index: String?

    @Option(help: "How many hits to print at most.")
    var limit = 20

    func run() throws {
        try reportingFailure {
            let file = try StoreFile(path: store)
            let coordinator = try StoreFile.coordinator(for: try file.model(try modelOptions.load()))
            let opened = try file.open(in: coordinator, tracksPersistentHistory: true)
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("strata-search-\(UUID())")
            defer { try? FileManager.default.removeItem(at: scratch) }
            if index == nil { try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true) }
            let exporter = try SearchIndexExporter(
                store: opened, coordinator: coordinator,
                indexURL: index.map { URL(fileURLWithPath: $0) } ?? scratch.appendingPathComponent("index.search"))
            try exporter.exportPendingChanges()
            let hits = try exporter.search(query, limit: limit)
            var lines = ["\(hits.count) \(hits.count == 1 ? "hit" : "hits") for \"\(query)\""]
            for hit in hits {
                lines.append(
                    "  \(hit.title.isEmpty ? "(untitled)" : hit.title) (\(hit.entityName))  score "
                        + String(format: "%.2f", hit.score))
                lines.append("    \(hit.snippet.replacingOccurrences(of: "\n", with: " "))")
                lines.append("    \(hit.uri.absoluteString)")
            }
            print(lines.joined(separator: "\n"))
        }
    }
}
