import Foundation
import StrataPostgresTesting

/// Where the PostgreSQL subjects keep their stores: a schema of the benchmark's server for each
/// scratch folder, named after the folder's path, so that the memory probes, child processes
/// of their own, find the same schema from the same folder.
///
/// The server is the throwaway one of `StrataPostgresTesting` (a new cluster on a free loopback
/// port, gone when the benchmark ends), or the one `STRATA_POSTGRES_URL` names. The benchmark
/// sets that variable to the server it started, so its children use it too.
enum PostgresPlaces {
    /// The server's database URL, starting the server on first use.
    static func server() throws -> URL {
        let url = try PostgresTestServer.shared.get().url
        setenv("STRATA_POSTGRES_URL", url.absoluteString, 1)
        return url
    }

    /// The schema of `folder`.
    static func schema(of folder: URL) -> String {
        let hash = folder.standardizedFileURL.path.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) {
            ($0 ^ UInt64($1)) &* 0x100_0000_01b3
        }
        return "bench_" + String(hash, radix: 16)
    }

    /// The URL of the Strata store of `folder`.
    static func storeURL(of folder: URL) throws -> URL {
        try PostgresTestServer.shared.get().storeURL(schema: schema(of: folder))
    }

    /// Drops the schema of `folder` and all it holds.
    static func drop(_ folder: URL) throws {
        try RawPostgresConnection(url: try server()).execute("DROP SCHEMA IF EXISTS \(schema(of: folder)) CASCADE")
    }

    /// Makes the schema of `destination` a copy of that of `source`: every table with its rows,
    /// indexes and constraints, every sequence where it stands; then analyses it, as the source is.
    static func copy(_ source: URL, to destination: URL) throws {
        let connection = try RawPostgresConnection(url: try server())
        let from = schema(of: source)
        let to = schema(of: destination)
        try connection.execute("DROP SCHEMA IF EXISTS \(to) CASCADE; CREATE SCHEMA \(to)")
        try connection.prepare("tables", "SELECT tablename FROM pg_tables WHERE schemaname = $1")
        let tables = try connection.run("tables", [Array(from.utf8)])
        for row in 0..<tables.count {
            let table = "\"" + tables.string(row, 0) + "\""
            try connection.execute(
                "CREATE TABLE \(to).\(table) (LIKE \(from).\(table) INCLUDING ALL); "
                    + "INSERT INTO \(to).\(table) SELECT * FROM \(from).\(table)")
        }
        try connection.prepare(
            "sequences", "SELECT sequencename, coalesce(last_value, 0) FROM pg_sequences WHERE schemaname = $1")
        let sequences = try connection.run("sequences", [Array(from.utf8)])
        for row in 0..<sequences.count {
            let sequence = "\"" + sequences.string(row, 0) + "\""
            try connection.execute("CREATE SEQUENCE \(to).\(sequence)")
            let last = sequences.int64(row, 1)
            if last > 0 { try connection.execute("SELECT setval('\(to).\(sequence)', \(last))") }
        }
        try connection.execute("ANALYZE")
    }
}
