import ArgumentParser
import Foundation
import Strata
import StrataSync

/// `strata sync REPLICA HUB`: keeps a replica's store in step with a hub, once or watching.
struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sync a replica's store with a hub, once or until stopped.",
        discussion: """
            REPLICA is the replica's store: a file (made, as its extension says, when it does not exist and \
            --model is given) or a PostgreSQL URL; its model gets the entities sync keeps its state in. HUB is \
            a sync server's URL (http:// or https://, with --token or STRATA_SYNC_TOKEN), or a hub's store \
            reached directly: a file (made as SQLite when new) or a PostgreSQL URL. Each sync pushes what was \
            saved to the replica since the last one and pulls the other replicas' changes. With --watch, it \
            syncs whenever the hub's log moves and every --interval seconds, printing what it does, until \
            interrupted.
            """)

    @Argument(help: "The replica's store file, or a PostgreSQL URL.")
    var replica: String

    @Argument(help: "A sync server's URL, or the hub's store file or PostgreSQL URL.")
    var hub: String

    @OptionGroup var modelOptions: ModelOptions

    @Option(help: "The hub's name on the sync server.")
    var hubName = "main"

    @Option(help: "The replica's bearer token for the sync server (default: $STRATA_SYNC_TOKEN).")
    var token: String?

    @Flag(help: "Sync once and exit (the default).")
    var once = false

    @Flag(help: "Sync whenever something changes, until interrupted.")
    var watch = false

    @Option(help: "With --watch, how often to look for changes saved to the replica, in seconds.")
    var interval = 1.0

    func validate() throws {
        if once && watch { throw ValidationError("Pass --once or --watch, not both.") }
        if !(interval > 0 && interval <= 86_400) {
            throw ValidationError("--interval must be more than 0 and at most 86400.")
        }
    }

    func run() async throws {
        try await reportingFailureAsync {
            let coordinator = try SyncStores.replica(at: replica, model: try modelOptions.load())
            var options = SyncEngine.Options()
            options.watchInterval = .milliseconds(Int64(interval * 1000))
            let engine = try SyncEngine(coordinator: coordinator, hub: try hubConnection(), options: options)
            if watch {
                try await watchUntilInterrupted(engine)
            } else {
                let printing = Task { for await event in engine.events { Self.print(event) } }
                defer { printing.cancel() }
                try await engine.syncNow()
                let status = try await engine.status()
                Swift.print("Synced replica \(engine.replica) up to \(status.cursor) in the hub's log.")
            }
        }
    }

    private func hubConnection() throws -> any SyncHub {
        let lowered = hub.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return try SyncStores.hub(at: hub) }
        guard let server = URL(string: hub) else { throw CommandFailure(description: "'\(hub)' is not a URL.") }
        guard let token = token ?? ProcessInfo.processInfo.environment["STRATA_SYNC_TOKEN"] else {
            throw CommandFailure(description: "Syncing through a server needs --token or STRATA_SYNC_TOKEN.")
        }
        return HTTPHub(server: server, hub: hubName, token: token)
    }

    private func watchUntilInterrupted(_ engine: SyncEngine) async throws {
        let stop = InterruptSignals()
        await engine.start()
        Swift.print("Watching replica \(engine.replica); interrupt to stop.")
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await event in engine.events { Self.print(event) } }
            await stop.wait()
            group.cancelAll()
        }
        await engine.stop()
    }

    private static func print(_ event: SyncEvent) {
        switch event {
        case .pushed(let operations, let sequence): Swift.print("pushed \(operations) operations at \(sequence)")
        case .pulled(let operations, let cursor): Swift.print("pulled \(operations) operations up to \(cursor)")
        case .conflictSettled(let operation, let winner):
            Swift.print("kept the write stamped \(winner) over \(operation.stamp) on \(operation.object)")
        case .conflictResolved(let conflict, let kept):
            Swift.print("resolved \(conflict.key) of \(conflict.object) as \(kept)")
        case .clockDrift(let error): Swift.print("clock drift: \(error)")
        case .failed(let message): Swift.print("sync failed: \(message)")
        }
    }
}
