import ArgumentParser
import Foundation
import Logging
import StrataSync
import StrataSyncServer

/// `strata sync-server`: a hub served over HTTP to replicas holding tokens.
struct SyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-server",
        abstract: "Serve a hub over HTTP to replicas holding bearer tokens.",
        discussion: """
            The hub is a store: a file (made as SQLite when new) or a PostgreSQL URL. Replicas reach it with \
            `strata sync REPLICA http://HOST:PORT/ --token TOKEN`; make tokens with `strata sync-token`, which \
            keeps only their digests in the tokens file. Serve it behind a proxy that terminates TLS. Prints \
            the port it listens on, then runs until SIGINT or SIGTERM. With --models and --oldest-model, \
            replicas on a version of the application's model older than the one named are refused. Several \
            servers may serve one PostgreSQL hub; each hears of the others' pushes by NOTIFY.
            """)

    @Option(help: "The hub's store file, or a PostgreSQL URL.")
    var hub: String

    @Option(help: "The name replicas reach the hub by.")
    var hubName = "main"

    @Option(help: "The port to listen on; 0 for any free one.")
    var port = 8080

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The tokens file (made by `strata sync-token`).")
    var tokens: String

    @Option(
        help: ArgumentHelp(
            "The application's versioned model (an .xcdatamodeld or .momd bundle), whose versions replicas run.",
            valueName: "bundle"))
    var models: String?

    @Option(
        help: ArgumentHelp(
            "The oldest version of --models the hub serves; replicas on older versions are refused.",
            valueName: "name"))
    var oldestModel: String?

    /// The versions `--models` and `--oldest-model` say the hub serves; `nil` when neither is given.
    func modelSupport() throws -> ModelSupport? {
        guard let models, let oldestModel else {
            if models != nil || oldestModel != nil {
                throw CommandFailure(description: "--models and --oldest-model go together.")
            }
            return nil
        }
        let bundle = try VersionedModelFile(path: models)
        let versions = try bundle.plan.versions.map { try SyncModelVersion(of: $0.model, named: $0.name) }
        guard let support = ModelSupport(versions: versions, oldestSupported: oldestModel) else {
            throw CommandFailure(
                description: "'\(bundle.url.lastPathComponent)' has no version '\(oldestModel)'; its versions are: "
                    + versions.compactMap(\.name).joined(separator: ", ") + ".")
        }
        return support
    }

    func run() async throws {
        try await reportingFailureAsync {
            let grants = try AccessTokens(contentsOf: URL(fileURLWithPath: tokens))
            let storeHub = try SyncStores.hub(at: hub, modelSupport: try modelSupport())
            let logger = Logger(label: "strata.sync-server")
            let application = SyncServer.application(
                hubs: [hubName: storeHub], tokens: grants, configuration: .init(address: .hostname(host, port: port)),
                onServerRunning: { port in
                    let line = "Serving hub '\(hubName)' on \(host):\(port.map(String.init) ?? "?")\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                }, logger: logger)
            try await application.runService()
        }
    }
}
