import ArgumentParser
import Foundation
import Strata
import StrataStores

/// `strata convert SOURCE DEST`: copies every object of a store into a new store of another type.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move all data from a store into a new store of another type.",
        discussion: """
            The destination must not exist yet. Without --to, its type comes from its extension: \
            .sqlite, .lmdb, .xml, or .binary/.strata. The source is only read; when the copy fails, \
            no destination is left behind.
            """)

    /// Destination types by file extension.
    static let typesByExtension = [
        "sqlite": "SQLite", "lmdb": "LMDB", "xml": "XML", "binary": "Binary", "strata": "Binary",
    ]

    @Argument(help: "The store to copy.")
    var source: String

    @Argument(help: "Where to create the new store.")
    var destination: String

    @Option(help: ArgumentHelp("The new store's type: SQLite, LMDB, XML or Binary.", valueName: "type"))
    var to: String?

    @OptionGroup var modelOptions: ModelOptions

    func run() throws {
        try reportingFailure {
            let file = try StoreFile(path: source)
            let destinationURL = URL(fileURLWithPath: destination)
            let type = try destinationType(for: destinationURL)
            if FileManager.default.fileExists(atPath: destinationURL.path) {
                throw CommandFailure(description: "'\(destinationURL.path)' already exists; choose a new file.")
            }
            let model = try file.model(try modelOptions.load())
            let coordinator = try StoreFile.coordinator(for: model)
            let opened = try file.open(in: coordinator)
            let progress = ProgressDisplay(verb: "Copied")
            let copy = try coordinator.migratePersistentStore(opened, to: destinationURL, type: type) {
                progress.show($0)
            }
            progress.finish()
            let contents = StoreContents(store: copy, schema: model.schema)
            print(
                "Converted the \(file.typeName) store at '\(file.url.path)' to the \(type) store at "
                    + "'\(destinationURL.path)':")
            for name in contents.entityNames {
                print("  \(name): \(try contents.count(of: name)) objects")
            }
        }
    }

    private func destinationType(for url: URL) throws -> String {
        let names = StoreType.builtInFileTypes.map(\.name)
        if let to {
            guard let match = names.first(where: { $0.lowercased() == to.lowercased() }) else {
                throw CommandFailure(
                    description: "Unknown store type '\(to)'; choose one of \(names.joined(separator: ", ")).")
            }
            return match
        }
        guard let type = Self.typesByExtension[url.pathExtension.lowercased()] else {
            throw CommandFailure(
                description: "Cannot tell the destination's type from '\(url.lastPathComponent)'; name it with --to.")
        }
        return type
    }
}
