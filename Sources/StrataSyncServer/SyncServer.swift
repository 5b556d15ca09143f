import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import StrataSync

/// `strata sync-server`'s application: hubs served over HTTP to replicas holding bearer tokens
/// (``AccessTokens``), for machines that must not hold the hubs' database credentials.
///
/// Endpoints, under `v1/hubs/NAME/` (docs/SYNC.md, "The HTTP protocol"):
///
/// - `POST push`: a `SyncPush` as JSON; answers its `PushReceipt`. The token must grant
///   read-write access to the hub and name the push's replica.
/// - `GET pull?after=N&limit=BYTES`: the `PullBatch` after `N` for the token's replica.
/// - `GET head?after=N&wait=MS`: answers the log's last sequence number (`HubWire.Head`) as
///   soon as it passes `N`, or after `wait` milliseconds (at most a minute).
///
/// Every refusal is a 4xx with a `HubWire.Refusal` body whose code is a `SyncError.Code`:
/// 400 `malformedPush`, 401 `unauthorized`, 403 `forbidden` or `forgedReplica`, 404
/// `unknownHub`, 409 `entityMismatch` or `pushReplayed`, 413 `pushTooLarge`. A refused push
/// changes nothing. Serve it behind a proxy that terminates TLS.
public enum SyncServer {
    /// The application serving `hubs` by name to the holders of `tokens`.
    ///
    /// - Parameters:
    ///   - hubs: the hubs served, by the name replicas reach them by.
    ///   - tokens: the tokens the server takes.
    ///   - configuration: the address to listen on.
    ///   - maximumPushBytes: the largest request body taken (a push's JSON).
    ///   - maximumPullBytes: the most bytes of operations one pull brings, whatever it asks.
    ///   - services: services the application runs beside the server (the hub's store).
    ///   - onServerRunning: called with the port the server listens on once it does.
    ///   - logger: where the server's failures are logged.
    public static func application(
        hubs: [String: any SyncHub], tokens: AccessTokens, configuration: ApplicationConfiguration,
        maximumPushBytes: Int = 16 << 20, maximumPullBytes: Int = 16 << 20, services: [any Service] = [],
        onServerRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }, logger: Logger
    ) -> some ApplicationProtocol {
        let router = Router()
        SyncRoutes(
            hubs: hubs, tokens: tokens, maximumPushBytes: maximumPushBytes, maximumPullBytes: maximumPullBytes,
            logger: logger
        ).register(on: router)
        return Application(
            router: router, configuration: configuration, services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
            logger: logger)
    }
}
