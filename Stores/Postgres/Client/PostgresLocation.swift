import Foundation
import Strata

/// Where a PostgreSQL store lives, read from its URL:
/// `postgresql://user[:password]@host[:port]/database?schema=name`.
///
/// Everything but `schema` is libpq's own URI syntax, so its other parameters (`sslmode`,
/// `connect_timeout`, …) work as libpq documents them; a password missing from the URL comes
/// from the `PGPASSWORD` environment variable or `~/.pgpass`, as libpq reads them. Messages
/// and logs name the store by ``displayName``, which never holds a password.
struct PostgresLocation: Sendable, Hashable {
    /// The URL schemes a PostgreSQL store URL may have.
    static let schemes: Set<String> = ["postgresql", "postgres"]

    /// The PostgreSQL schema holding the store's tables.
    let schema: String
    /// libpq's connection string: the URL without `schema`.
    let conninfo: String
    /// The server, database and user: ``conninfo`` without `application_name`, which names
    /// connections to the same database differently.
    let database: String
    /// The URL without its password, for messages.
    let displayName: String

    init(url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), Self.schemes.contains(scheme),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw StoreError(
                code: .invalidOption,
                message:
                    "'\(Self.redacted(url))' is not a PostgreSQL URL (postgresql://user@host:port/database?schema=name)."
            )
        }
        var items = components.queryItems ?? []
        let schemaItems = items.filter { $0.name == "schema" }
        items.removeAll { $0.name == "schema" }
        let schema = schemaItems.last?.value ?? "public"
        guard !schema.isEmpty, schema.utf8.count <= PostgresIdentifier.maximumLength else {
            throw StoreError(
                code: .invalidOption,
                message: "The schema '\(schema)' of PostgreSQL URL '\(Self.redacted(url))' must have 1 to 63 bytes.")
        }
        components.queryItems = items.filter { $0.name != "application_name" }
        let database = components.string
        if !items.contains(where: { $0.name == "application_name" }) {
            items.append(URLQueryItem(name: "application_name", value: "strata"))
        }
        components.queryItems = items
        guard let conninfo = components.string, let database else {
            throw StoreError(code: .invalidOption, message: "'\(Self.redacted(url))' is not a valid PostgreSQL URL.")
        }
        self.schema = schema
        self.conninfo = conninfo
        self.database = database
        displayName = Self.redacted(url)
    }

    /// `url` with its schema replaced by a new one beside it (`<schema>.migrating-<id>`, clipped
    /// as PostgreSQL clips names): where a migration writes the store that replaces the one at
    /// `url`. A URL that is no PostgreSQL URL is returned as it is, and opening it fails.
    static func temporaryURL(beside url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = components.queryItems ?? []
        let schema = items.last { $0.name == "schema" }?.value ?? "public"
        items.removeAll { $0.name == "schema" }
        let id = UUID().uuidString.prefix(8).lowercased()
        items.append(URLQueryItem(name: "schema", value: PostgresIdentifier.clipped("\(schema).migrating-\(id)")))
        components.queryItems = items
        return components.url ?? url
    }

    /// `url` without its password.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil
        else { return url.absoluteString }
        components.password = nil
        return components.string ?? url.absoluteString
    }
}
