import Foundation
import Hummingbird
import Logging
import NIOCore
import StrataSync

/// The sync server's endpoints (``SyncServer``).
struct SyncRoutes: Sendable {
    let hubs: [String: any SyncHub]
    let tokens: AccessTokens
    let maximumPushBytes: Int
    let maximumPullBytes: Int
    let logger: Logger

    func register(on router: Router<BasicRequestContext>) {
        router.post("v1/hubs/:hub/push") { request, context in
            await answer {
                let (hub, grant) = try authorize(request, context, pushing: true)
                let body: ByteBuffer
                do {
                    body = try await request.body.collect(upTo: maximumPushBytes)
                } catch is NIOTooManyBytesError {
                    throw SyncError(code: .pushTooLarge, message: "The push is larger than \(maximumPushBytes) bytes.")
                }
                let push: SyncPush
                do {
                    push = try JSONDecoder().decode(SyncPush.self, from: Data(buffer: body))
                } catch {
                    throw SyncError(code: .malformedPush, message: "The push is not a push's JSON: \(error).")
                }
                guard push.replica == grant.replica else {
                    throw SyncError(
                        code: .forgedReplica,
                        message: "The push names replica \(push.replica); the token speaks for \(grant.replica).")
                }
                try await admitNamedModel(request, hub, grant)
                return try await hub.push(push)
            }
        }
        router.post("v1/hubs/:hub/admit") { request, context in
            await answer {
                let (hub, grant) = try authorize(request, context, pushing: false)
                let model: SyncModelVersion
                do {
                    let body = try await request.body.collect(upTo: 64 << 10)
                    model = try JSONDecoder().decode(SyncModelVersion.self, from: Data(buffer: body))
                } catch {
                    throw SyncError(code: .malformedPush, message: "The body is not a model version's JSON: \(error).")
                }
                try await hub.admit(grant.replica, model: model)
                return HubWire.Admitted(model: model)
            }
        }
        router.get("v1/hubs/:hub/pull") { request, context in
            let binary = request.headers[.accept]?.contains(HubWire.binaryMediaType) ?? false
            return await answer(binary: binary) {
                let (hub, grant) = try authorize(request, context, pushing: false)
                let after = try number("after", in: request) ?? 0
                let limit = min(try number("limit", in: request).map(Int.init) ?? maximumPullBytes, maximumPullBytes)
                try await admitNamedModel(request, hub, grant)
                // The hub counts the bytes of the binary form; JSON takes about four times as many.
                let kept = binary ? limit : limit / Self.jsonExpansion
                return try await hub.pull(after: after, for: grant.replica, byteLimit: max(kept, 1))
            }
        }
        router.get("v1/hubs/:hub/head") { request, context in
            await answer {
                let (hub, _) = try authorize(request, context, pushing: false)
                let after = try number("after", in: request) ?? -1
                let wait = min(max(try number("wait", in: request) ?? 0, 0), 60_000)
                return HubWire.Head(head: await Self.head(of: hub, after: after, waiting: .milliseconds(wait)))
            }
        }
    }

    /// The hub the request names and what its token grants.
    private func authorize(_ request: Request, _ context: BasicRequestContext, pushing: Bool) throws -> (
        any SyncHub, AccessTokens.Grant
    ) {
        let name = try context.parameters.require("hub")
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            let grant = tokens.grant(forBearer: String(header.dropFirst("Bearer ".count)))
        else { throw SyncError(code: .unauthorized, message: "The request carries no token this server knows.") }
        guard grant.hub == name else {
            throw SyncError(code: .forbidden, message: "The token is for hub '\(grant.hub)', not '\(name)'.")
        }
        guard !pushing || grant.access == .readWrite else {
            throw SyncError(code: .forbidden, message: "The token is read-only; pushing needs a read-write token.")
        }
        guard let hub = hubs[name] else {
            throw SyncError(code: .unknownHub, message: "This server serves no hub named '\(name)'.")
        }
        return (hub, grant)
    }

    /// About how many bytes of JSON a pull's operations take for each byte of the binary form.
    private static let jsonExpansion = 4

    /// Admits the replica the token names on the model version the request's
    /// ``HubWire/modelHeader`` names, when it names one: a server behind the same address as the
    /// one that admitted it first.
    private func admitNamedModel(_ request: Request, _ hub: any SyncHub, _ grant: AccessTokens.Grant) async throws {
        let name = HubWire.modelHeader.lowercased()
        guard let digest = request.headers.first(where: { $0.name.canonicalName == name })?.value else { return }
        try await hub.admit(grant.replica, model: SyncModelVersion(digest: digest, name: nil))
    }

    private func number(_ name: String, in request: Request) throws -> Int64? {
        guard let text = request.uri.queryParameters[Substring(name)] else { return nil }
        guard let value = Int64(text) else {
            throw SyncError(code: .malformedPush, message: "The query parameter '\(name)' is not a number: '\(text)'.")
        }
        return value
    }

    /// The hub's last sequence number once it passes `after`, or when `wait` is over.
    private static func head(of hub: any SyncHub, after: Int64, waiting wait: Duration) async -> Int64 {
        let heads = await hub.heads()
        return await withTaskGroup(of: Int64?.self) { group in
            group.addTask {
                var seen = after
                for await head in heads {
                    seen = head
                    if head > after { break }
                }
                return seen
            }
            group.addTask {
                try? await Task.sleep(for: wait)
                return nil
            }
            var seen: Int64?
            while let result = await group.next() {
                if let result {
                    seen = result
                    break
                }
                group.cancelAll()
            }
            group.cancelAll()
            return seen ?? after
        }
    }

    /// `body`'s answer as JSON, or its error as a refusal.
    private func answer(_ body: () async throws -> some Encodable) async -> Response {
        await respond { Self.json(try await body(), status: .ok) }
    }

    /// `body`'s batch in sync's binary form when the replica asked for it (`binary`), else as
    /// JSON; its error as a refusal.
    private func answer(binary: Bool, _ body: () async throws -> PullBatch) async -> Response {
        guard binary else { return await answer(body) }
        return await respond {
            Response(
                status: .ok, headers: [.contentType: HubWire.binaryMediaType],
                body: ResponseBody(byteBuffer: ByteBuffer(data: HubWire.binaryData(of: try await body()))))
        }
    }

    /// `body`'s response, or its error as a refusal.
    private func respond(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as SyncError {
            let status = Self.status(of: error.code)
            if status == .internalServerError { logger.error("\(error)") }
            return Self.json(HubWire.Refusal(code: error.code.rawValue, message: error.message), status: status)
        } catch {
            logger.error("\(error)")
            return Self.json(
                HubWire.Refusal(code: "internal", message: "The hub failed; the server's log says why."),
                status: .internalServerError)
        }
    }

    private static func status(of code: SyncError.Code) -> HTTPResponse.Status {
        switch code {
        case .malformedPush: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden, .forgedReplica: .forbidden
        case .unknownHub: .notFound
        case .entityMismatch, .pushReplayed, .modelTooOld: .conflict
        case .pushTooLarge: .contentTooLarge
        case .clockDrift: .unprocessableContent
        default: .internalServerError
        }
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        let data = (try? JSONEncoder().encode(value)) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(data: data)))
    }
}
