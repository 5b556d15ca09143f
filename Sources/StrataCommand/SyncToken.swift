import ArgumentParser
import Foundation
import StrataSync
import StrataSyncServer

/// `strata sync-token`: makes a replica's bearer token for a sync server.
struct SyncToken: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-token",
        abstract: "Make a replica's bearer token for a sync server.",
        discussion: """
            Adds the token's SHA-256 digest, with the hub, the replica and the access it grants, to the tokens \
            file (made when missing, readable by its owner alone), and prints the token: it is shown only now. \
            REPLICA is the replica's store (its replica ID is read, or chosen and saved in it) or a replica ID.
            """)

    @Argument(help: "The replica's store file or PostgreSQL URL, or its replica ID.")
    var replica: String

    @Option(help: "The tokens file.")
    var tokens: String

    @Option(help: "The hub's name on the sync server.")
    var hubName = "main"

    @Flag(help: "Let the token pull only, not push.")
    var readOnly = false

    @OptionGroup var modelOptions: ModelOptions

    func run() throws {
        try reportingFailure {
            let replicaID: ReplicaID
            if let uuid = UUID(uuidString: replica) {
                replicaID = ReplicaID(uuid)
            } else {
                replicaID = try SyncEngine.replicaID(
                    in: try SyncStores.replica(at: replica, model: try modelOptions.load()))
            }
            let url = URL(fileURLWithPath: tokens)
            var grants =
                FileManager.default.fileExists(atPath: url.path) ? try AccessTokens(contentsOf: url) : AccessTokens()
            let token = AccessTokens.newToken()
            grants.add(
                token, granting: .init(hub: hubName, replica: replicaID, access: readOnly ? .read : .readWrite))
            try grants.write(to: url)
            print(token)
        }
    }
}
