import ArgumentParser
import Foundation
import Strata

/// `strata dump STORE`: every object of a store as JSON.
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every object of a store as JSON.",
        discussion: """
            Objects are listed under their concrete entity, with attribute values in a lossless JSON form \
            ({"string": "…"}, {"decimal": "10.11"}, {"date": seconds since 2001}, {"binary": "<base64>"}, …) \
            and relationships as object ids. With --canonical, two stores holding the same object graph print \
            the same text whatever their type and object IDs, so that they can be compared with diff.
            """)

    @Argument(help: "The store file, or a PostgreSQL store's URL (postgresql://user@host:port/db?schema=name).")
    var store: String

    @OptionGroup var modelOptions: ModelOptions

    @Flag(help: "Leave out the store's type and UUID, order objects by content and name them by position.")
    var canonical = false

    func run() throws {
        try reportingFailure {
            let file = try StoreFile(path: store)
            let model = try file.model(try modelOptions.load())
            let opened = try file.open(model: model)
            let document = try DumpBuilder(
                contents: StoreContents(store: opened, schema: model.schema), canonical: canonical
            ).build()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(document) + Data("\n".utf8))
        }
    }
}
