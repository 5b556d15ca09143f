import Foundation
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A hub reached over HTTP, through a `strata sync-server` in front of it: for machines that
/// must not hold the hub's database credentials. Each request carries the replica's bearer
/// token, which the server maps to one hub, one replica and read or read-write access.
///
/// ``heads()`` waits on the server (a long poll of up to ``longPollWait``) rather than polling,
/// so a watching engine pulls as soon as another replica's push lands.
public struct HTTPHub: SyncHub {
    /// The server's base URL (`https://sync.example.com/`).
    public let server: URL
    /// The name the server serves the hub under.
    public let hub: String
    /// How long one wait for the log to move lasts before it is asked again.
    public let longPollWait: Duration
    private let token: String
    private let session: URLSession
    /// The model version the server admitted, sent with every later request.
    private let admittedModel = Locked<SyncModelVersion?>(nil)

    /// A hub named `hub` on `server`, reached with the bearer `token`.
    public init(server: URL, hub: String, token: String, longPollWait: Duration = .seconds(25)) {
        self.server = server
        self.hub = hub
        self.token = token
        self.longPollWait = longPollWait
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Double(longPollWait.components.seconds) + 30
        session = URLSession(configuration: configuration)
    }

    public func push(_ push: SyncPush) async throws -> PushReceipt {
        var request = request("push", [])
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(push)
        return try await send(request)
    }

    public func admit(_ replica: ReplicaID, model: SyncModelVersion) async throws {
        // The server admits the replica its token names.
        var request = request("admit", [])
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(model)
        let (data, status, _) = try await exchange(request)
        // A server from before hubs admitted versions has no such endpoint: it serves every one.
        if status == 404 || status == 405, (try? JSONDecoder().decode(HubWire.Refusal.self, from: data)) == nil {
            return
        }
        let _: HubWire.Admitted = try answer(data, status)
        admittedModel.withLock { $0 = model }
    }

    public func pull(after cursor: Int64, for replica: ReplicaID, byteLimit: Int) async throws -> PullBatch {
        // The server pulls for the replica its token names, in sync's binary form when it speaks it.
        var request = request("pull", [("after", "\(cursor)"), ("limit", "\(byteLimit)")])
        request.setValue("\(HubWire.binaryMediaType), application/json;q=0.5", forHTTPHeaderField: "Accept")
        let (data, status, mediaType) = try await exchange(request)
        guard (200..<300).contains(status), mediaType == HubWire.binaryMediaType else {
            return try answer(data, status)
        }
        do {
            return try HubWire.batch(fromBinary: data)
        } catch {
            throw SyncError(
                code: .hubUnreachable,
                message:
                    "The sync server at \(server.absoluteString) answered with a batch that cannot be read: \(error).")
        }
    }

    public func heads() async -> AsyncStream<Int64> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        let wait = longPollWait.components.seconds * 1000
        let task = Task {
            var last: Int64 = -1
            while !Task.isCancelled {
                do {
                    let head: HubWire.Head = try await send(
                        request("head", [("after", "\(last)"), ("wait", "\(wait)")]))
                    if head.head != last {
                        last = head.head
                        continuation.yield(head.head)
                    }
                } catch {
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func request(_ endpoint: String, _ query: [(String, String)]) -> URLRequest {
        var components = URLComponents(
            url: server.appendingPathComponent(HubWire.path(of: hub, endpoint)), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        var request = URLRequest(url: components?.url ?? server)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let model = admittedModel.withLock({ $0 }) {
            request.setValue(model.digest, forHTTPHeaderField: HubWire.modelHeader)
        }
        return request
    }

    private func send<Answer: Decodable>(_ request: URLRequest) async throws -> Answer {
        let (data, status, _) = try await exchange(request)
        return try answer(data, status)
    }

    /// The body, status and media type (without parameters) of the server's answer to `request`.
    private func exchange(_ request: URLRequest) async throws -> (Data, Int, String?) {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw SyncError(
                code: .hubUnreachable,
                message: "The sync server at \(server.absoluteString) cannot be reached: \(error).")
        }
        let http = response as? HTTPURLResponse
        let mediaType = http?.value(forHTTPHeaderField: "Content-Type")?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return (data, http?.statusCode ?? 0, mediaType)
    }

    /// The answer `data` holds, or the refusal it names.
    private func answer<Answer: Decodable>(_ data: Data, _ status: Int) throws -> Answer {
        guard (200..<300).contains(status) else {
            if let refusal = try? JSONDecoder().decode(HubWire.Refusal.self, from: data) {
                throw SyncError(
                    code: SyncError.Code(rawValue: refusal.code) ?? .hubRefused,
                    message: "The sync server refused (HTTP \(status)): \(refusal.message)")
            }
            throw SyncError(
                code: .hubUnreachable, message: "The sync server at \(server.absoluteString) answered HTTP \(status).")
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw SyncError(
                code: .hubUnreachable,
                message: "The sync server at \(server.absoluteString) answered with something that is not a "
                    + "\(Answer.self): \(error).")
        }
    }
}
