import ArgumentParser
import Foundation
import Strata
import StrataPostgres
import StrataStores

/// `strata convert SOURCE DEST`: copies every object of a store into a new store of another type.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move all data from a store into a new store of another type.",
        discussion: """
            The destination must not exist yet. Without --to, its type comes from its extension: \
            .sqlite, .lmdb, .xml, or .binary/.strata; a postgresql:// URL \
            (postgresql://user@host:port/db?schema=name) is a PostgreSQL store. The source is only \
            read; when the copy fails, no destination is left behind.
            """)

    /// Destination types by file extension.
    static let typesByExtension = [
        "sqlite": "SQLite", "lmdb": "LMDB", "xml": "XML", "binary": "Binary", "strata": "Binary",
    ]

    @Argument(help: "The store to copy: a file, or a PostgreSQL store's URL.")
    var source: String

    @Argument(help: "Where to create the new store: a file, or a PostgreSQL store's URL.")
    var destination: String

    @Option(help: ArgumentHelp("The new store's type: SQLite, LMDB, XML, Binary or PostgreSQL.", valueName: "type"))
    var to: String?

    @OptionGroup var modelOptions: ModelOptions

    func run() throws {
        try reportingFailure {
            let file = try StoreFile(path: source)
            let destinationURL = StoreFile.url(of: destination)
            let type = try destinationType(for: destinationURL)
            let model = try file.model(try modelOptions.load())
            let coordinator = try StoreFile.coordinator(for: model)
            try checkFree(destinationURL, type: type, coordinator: coordinator)
            let opened = try file.open(in: coordinator)
            let progress = ProgressDisplay(verb: "Copied")
            let copy = try coordinator.migratePersistentStore(opened, to: destinationURL, type: type) {
                progress.show($0)
            }
            progress.finish()
            let contents = StoreContents(store: copy, schema: model.schema)
            print(
                "Converted the \(file.typeName) store at '\(file.name)' to the \(type) store at "
                    + "'\(destinationURL.nameInMessages)':")
            for name in contents.entityNames {
                print("  \(name): \(try contents.count(of: name)) objects")
            }
        }
    }

    /// Fails when a file is at `url`, or a store of `type` is there.
    private func checkFree(_ url: URL, type: String, coordinator: PersistentStoreCoordinator) throws {
        if url.isFileURL, FileManager.default.fileExists(atPath: url.path) {
            throw CommandFailure(description: "'\(url.path)' already exists; choose a new file.")
        }
        if !url.isFileURL, try coordinator.metadataForStore(type: type, at: url) != nil {
            throw CommandFailure(
                description: "'\(url.nameInMessages)' already holds a store; choose a new schema.")
        }
    }

    private func destinationType(for url: URL) throws -> String {
        let names = StoreFile.storeTypes.map(\.name)
        let postgres = StoreType.postgres.name
        var named: String?
        if let to {
            guard let match = names.first(where: { $0.lowercased() == to.lowercased() }) else {
                throw CommandFailure(
                    description: "Unknown store type '\(to)'; choose one of \(names.joined(separator: ", ")).")
            }
            named = match
        }
        if !url.isFileURL {
            guard named == nil || named == postgres else {
                throw CommandFailure(description: "A \(named ?? "") store is a file; give a path, not a URL.")
            }
            return postgres
        }
        if let named {
            guard named != postgres else {
                throw CommandFailure(
                    description: "A PostgreSQL store is named by its URL (postgresql://user@host:port/db?schema=name).")
            }
            return named
        }
        guard let type = Self.typesByExtension[url.pathExtension.lowercased()] else {
            throw CommandFailure(
                description: "Cannot tell the destination's type from '\(url.lastPathComponent)'; name it with --to.")
        }
        return type
    }
}
