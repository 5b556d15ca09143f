import Crypto
import Foundation
import StrataSync

/// The bearer tokens a sync server accepts, each kept only as its SHA-256 digest, with the one
/// hub, the one replica and the access it grants.
///
/// The tokens file is JSON:
///
/// ```json
/// {"tokens": [{"sha256": "9f86d0…", "hub": "main",
///              "replica": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "access": "read-write"}]}
/// ```
///
/// `strata sync-token` makes a token, adds its digest to the file and prints the token once.
public struct AccessTokens: Sendable {
    /// What a token lets its replica do.
    public enum Access: String, Sendable, Hashable, Codable {
        /// Pull and wait for the log to move.
        case read
        /// Push too.
        case readWrite = "read-write"
    }

    /// What one token grants.
    public struct Grant: Sendable, Hashable, Codable {
        /// The hub it reaches.
        public var hub: String
        /// The replica it speaks for: every push it sends is that replica's.
        public var replica: ReplicaID
        /// Whether it may push.
        public var access: Access

        /// Creates a grant.
        public init(hub: String, replica: ReplicaID, access: Access) {
            self.hub = hub
            self.replica = replica
            self.access = access
        }
    }

    private struct Entry: Codable {
        var sha256: String
        var hub: String
        var replica: ReplicaID
        var access: Access
    }

    private struct File: Codable { var tokens: [Entry] }

    private var grants: [String: Grant] = [:]

    /// No tokens: every request is refused.
    public init() {}

    /// The tokens listed in the file at `url`.
    ///
    /// - Throws: ``SyncServerError`` naming the file, and the entry when one is wrong.
    public init(contentsOf url: URL) throws {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: try Data(contentsOf: url))
        } catch {
            throw SyncServerError(message: "The tokens file '\(url.path)' cannot be read: \(error)")
        }
        for (index, entry) in file.tokens.enumerated() {
            let digest = entry.sha256.lowercased()
            guard digest.count == 64, digest.allSatisfy(\.isHexDigit) else {
                throw SyncServerError(
                    message: "Token \(index + 1) of '\(url.path)' has no SHA-256 digest (64 hexadecimal digits).")
            }
            guard
                grants.updateValue(Grant(hub: entry.hub, replica: entry.replica, access: entry.access), forKey: digest)
                    == nil
            else { throw SyncServerError(message: "Token \(index + 1) of '\(url.path)' is listed twice.") }
        }
    }

    /// What `token` grants, if it is one of the tokens.
    public func grant(forBearer token: String) -> Grant? { grants[Self.digest(of: token)] }

    /// Adds `token`, granting `grant`.
    public mutating func add(_ token: String, granting grant: Grant) { grants[Self.digest(of: token)] = grant }

    /// Writes the tokens' digests and grants to `url`, readable by its owner alone.
    public func write(to url: URL) throws {
        let entries = grants.sorted { $0.key < $1.key }.map {
            Entry(sha256: $0.key, hub: $0.value.hub, replica: $0.value.replica, access: $0.value.access)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(File(tokens: entries))
        guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { throw SyncServerError(message: "The tokens file '\(url.path)' cannot be written.") }
    }

    /// A new token: `strata_` and 32 random bytes in base64url. The prefix keeps a token from
    /// beginning with `-`, which a command line would read as an option, and lets secret
    /// scanners know it.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "strata_"
            + Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The SHA-256 digest of `token`, in lowercase hexadecimal: what the file keeps.
    public static func digest(of token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// A sync server that cannot start: its tokens file or its hub.
public struct SyncServerError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public let message: String

    /// Creates an error.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
