import ArgumentParser
import Foundation
import Strata

/// `strata inspect STORE`: what a store file is, without the application's model.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a store's type, UUID, format version, model version hashes and identifiers and entity counts.")

    @Argument(help: "The store file, or a PostgreSQL store's URL (postgresql://user@host:port/db?schema=name).")
    var store: String

    @OptionGroup var modelOptions: ModelOptions

    func run() throws {
        try reportingFailure {
            let file = try StoreFile(path: store)
            let metadata = file.metadata
            let identifiers = metadata.versionIdentifiers.filter { !$0.isEmpty }
            var lines = [
                "Store: \(file.name)",
                "Type: \(file.typeName)",
                "UUID: \(metadata.storeIdentifier)",
                "Written by: " + (metadata.frameworkVersion.first?.isNumber == true ? "Strata " : "")
                    + metadata.frameworkVersion,
                "Version hashes layout: \(metadata.versionHashesVersion)",
                try StoreFormatDescription.describe(file),
                "Model version identifiers: " + (identifiers.isEmpty ? "none" : identifiers.joined(separator: ", ")),
                "Model version hashes:",
            ]
            for name in metadata.versionHashes.keys.sorted() {
                lines.append("  \(name): \(Data(metadata.versionHashes[name] ?? []).base64EncodedString())")
            }
            if !metadata.userInfo.isEmpty {
                lines.append("Metadata keys: " + metadata.userInfo.keys.sorted().joined(separator: ", "))
            }
            var model = try modelOptions.load() ?? file.recordedModel
            if let bundle = try modelOptions.versionedModel() {
                let name = bundle.url.lastPathComponent
                let version = bundle.plan.version(
                    matching: metadata, configuration: model.flatMap { file.configuration(in: $0) })
                let names = bundle.plan.versions.map(\.name).joined(separator: ", ")
                lines.append(
                    "Model version: "
                        + (version.map { "'\($0.name)' of \(name)" } ?? "none of \(name)'s versions (\(names))"))
                if let version { model = version.model }
            }
            if let model {
                let store = try file.open(model: model)
                let contents = StoreContents(store: store, schema: model.schema)
                lines.append("Objects by entity:")
                for name in contents.entityNames {
                    lines.append("  \(name): \(try contents.count(of: name))")
                }
            } else {
                lines.append(
                    "Objects by entity: this store does not record its model (Core Data wrote it); "
                        + "pass a model file with --model to count them.")
            }
            print(lines.joined(separator: "\n"))
        }
    }
}
