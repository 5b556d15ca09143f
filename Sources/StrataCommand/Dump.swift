import ArgumentParser
import Foundation
import Strata

/// `strata dump STORE`: every object of a store as JSON.
struct Dump: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every object of a store as JSON.",
        discussion: """
            Objects are listed under their concrete entity, with attribute values in a lossless JSON form \
            ({"string": "…"}, {"decimal": "10.11"}, {"date": seconds since 2001}, {"binary": "<base64>"}, …) \
            and relationships as object ids. With --canonical, two stores holding the same object graph print \
            the same text whatever their type and object IDs, so that they can be compared with diff; it \
            leaves out the entities sync keeps its state in (StrataSync…), each store's own. For a sync hub's \
            store, --model names the application's model, and the dump shows the objects the hub resolves, as \
            a replica that pulled the whole log shows them: a replica's canonical dump and the hub's match.
            """)

    @Argument(help: "The store file, or a PostgreSQL store's URL (postgresql://user@host:port/db?schema=name).")
    var store: String

    @OptionGroup var modelOptions: ModelOptions

    @Flag(help: "Leave out the store's type and UUID, order objects by content and name them by position.")
    var canonical = false

    func run() async throws {
        try await reportingFailureAsync {
            let file = try StoreFile(path: store)
            let given = try modelOptions.load()
            if canonical, given == nil, HubContents.isHub(file) {
                throw CommandFailure(
                    description: "'\(file.name)' is a sync hub's store, whose canonical dump shows the application's "
                        + "objects; pass the application's model with --model.")
            }
            let contents: StoreContents
            // Kept until the dump is built: a store's coordinator.
            let coordinator: PersistentStoreCoordinator
            if let given, HubContents.isHub(file) {
                let (shownIn, shown) = try await HubContents.shown(file, model: given)
                (coordinator, contents) = (shownIn, StoreContents(store: shown, schema: shownIn.schema))
            } else {
                let model = try file.model(given)
                coordinator = try StoreFile.coordinator(for: model)
                contents = StoreContents(store: try file.open(in: coordinator), schema: model.schema)
            }
            let document = try withExtendedLifetime(coordinator) {
                try DumpBuilder(contents: contents, canonical: canonical).build()
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(document) + Data("\n".utf8))
        }
    }
}
