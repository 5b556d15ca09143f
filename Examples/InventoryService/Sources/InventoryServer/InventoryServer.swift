import ArgumentParser
import Foundation
import Hummingbird
import Inventory
import Logging

/// `InventoryServer --sqlite FILE` or `InventoryServer --postgres URL`: serves the inventory
/// over HTTP until SIGTERM or SIGINT, then stops taking requests and closes the store.
@main
struct InventoryServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve an inventory kept in a Strata store over HTTP.")

    @Option(help: "Keep the items in this SQLite file.")
    var sqlite: String?

    @Option(help: "Keep the items in this PostgreSQL database (postgresql://user@host:port/database?schema=name).")
    var postgres: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    func validate() throws {
        guard (sqlite == nil) != (postgres == nil) else {
            throw ValidationError("Give exactly one of --sqlite and --postgres.")
        }
    }

    func run() async throws {
        let store: InventoryStore =
            if let sqlite {
                .sqlite(URL(fileURLWithPath: sqlite))
            } else if let postgres, let url = URL(string: postgres) {
                .postgres(url)
            } else {
                throw ValidationError("'\(postgres ?? "")' is not a URL.")
            }
        let logger = Logger(label: "inventory")
        let container = try InventoryApplication.makeContainer(store: store, logger: logger)
        let application = InventoryApplication.make(
            container: container, configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            logger: logger)
        try await application.runService()
    }
}
