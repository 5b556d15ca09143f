import Foundation

/// A throwaway PostgreSQL server for the tests of one process: a new cluster in a temporary
/// folder (`initdb`), listening on a free loopback port, started when first asked for and
/// stopped, its folder removed, when the process ends. Under root it runs as the `postgres`
/// user (or `nobody`), as the server refuses to run as root. It needs PostgreSQL's server
/// programs (Debian's `postgresql` package), found through `pg_config` or in
/// `/usr/lib/postgresql/<version>/bin`.
///
/// ```swift
/// let server = try PostgresTestServer.shared.get()
/// let url = server.storeURL(schema: PostgresTestServer.uniqueSchema())
/// try coordinator.addStore(.postgres(at: url))
/// ```
///
/// Set `STRATA_POSTGRES_URL` to a server's URL (`postgresql://user@host:port/database`) to use
/// that server instead.
public final class PostgresTestServer: Sendable {
    /// The server of this process: the one `STRATA_POSTGRES_URL` names, or else a new one,
    /// started on first use; the error when it could not start.
    public static let shared: Result<PostgresTestServer, any Error> = Result {
        if let given = ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"], let url = URL(string: given) {
            return PostgresTestServer(url: url, dataDirectory: nil, binaries: nil, runAs: nil)
        }
        return try makeServer()
    }

    /// The URL of the server's `postgres` database, as the superuser `strata`.
    public let url: URL
    /// The cluster's folder; `nil` for a server given by `STRATA_POSTGRES_URL`.
    public let dataDirectory: URL?
    private let binaries: URL?
    private let runAs: String?
    /// Server settings (`-c name=value`) besides those every test server has.
    private let settings: [String: String]

    private init(url: URL, dataDirectory: URL?, binaries: URL?, runAs: String?, settings: [String: String] = [:]) {
        self.url = url
        self.dataDirectory = dataDirectory
        self.binaries = binaries
        self.runAs = runAs
        self.settings = settings
    }

    /// The URL of a store in schema `schema` of the server's database, whose connections tell
    /// the server `applicationName` when one is given.
    public func storeURL(schema: String, applicationName: String? = nil) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems =
            (components.queryItems ?? []) + [URLQueryItem(name: "schema", value: schema)]
            + (applicationName.map { [URLQueryItem(name: "application_name", value: $0)] } ?? [])
        return components.url!
    }

    /// The URL of a store in schema `schema` of the shared server, whose connections tell the
    /// server `applicationName` when one is given; a URL no server answers when it did not
    /// start (then ``shared`` holds the reason).
    public static func storeURL(schema: String, applicationName: String? = nil) -> URL {
        (try? shared.get())?.storeURL(schema: schema, applicationName: applicationName)
            ?? URL(string: "postgresql://strata@127.0.0.1:1/postgres?schema=\(schema)")!
    }

    /// A schema name no other test of the run uses.
    public static func uniqueSchema(_ prefix: String = "test") -> String {
        "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
    }

    /// Stops the server (`immediate`: as a crash would), keeping its folder.
    public func stop() throws { try control(["stop", "-m", "immediate"]) }

    /// Starts the server again after ``stop()``.
    public func restart() throws { try control(["start", "-w", "-l", logFile, "-o", serverOptions]) }

    private var logFile: String { dataDirectory!.deletingLastPathComponent().appendingPathComponent("server.log").path }
    private var serverOptions: String {
        let port = url.port ?? 5432
        let socketFolder = dataDirectory!.deletingLastPathComponent().path
        let chosen = ["max_prepared_transactions": "20"].merging(settings) { _, given in given }
        return "-c listen_addresses=127.0.0.1 -c port=\(port) -c unix_socket_directories=\(socketFolder) "
            + "-c fsync=off -c max_connections=200 "
            + chosen.sorted { $0.key < $1.key }.map { "-c \($0.key)=\($0.value)" }.joined(separator: " ")
    }

    private func control(_ arguments: [String]) throws {
        guard let binaries, let dataDirectory else {
            throw PostgresTestServerError(
                message: "A server given by STRATA_POSTGRES_URL cannot be stopped or started.")
        }
        try Self.run(binaries.appendingPathComponent("pg_ctl").path, ["-D", dataDirectory.path] + arguments, as: runAs)
    }

    /// A new server of the test's own, which it may stop and restart without disturbing the
    /// tests using ``shared``; stopped like it when the process ends. `settings` are server
    /// settings besides those every test server has (`max_prepared_transactions` is 20 unless
    /// given).
    public static func makeServer(settings: [String: String] = [:]) throws -> PostgresTestServer {
        let binaries = try binaryFolder()
        let runAs = getuid() == 0 ? unprivilegedUser() : nil
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-postgres-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let runAs { try run("/bin/chown", [runAs, folder.path], as: nil) }
        let data = folder.appendingPathComponent("data", isDirectory: true)
        try run(
            binaries.appendingPathComponent("initdb").path,
            ["-D", data.path, "-A", "trust", "-U", "strata", "-E", "UTF8", "--locale=C", "--no-sync"], as: runAs)
        let server = PostgresTestServer(
            url: URL(string: "postgresql://strata@127.0.0.1:\(try freePort())/postgres")!, dataDirectory: data,
            binaries: binaries, runAs: runAs, settings: settings)
        try server.restart()
        server.stopWhenProcessEnds(folder: folder)
        return server
    }

    /// Starts a watcher that stops the server and removes its folder once this process is gone,
    /// however it ends.
    private func stopWhenProcessEnds(folder: URL) {
        let pgctl = binaries!.appendingPathComponent("pg_ctl").path
        let stop = "\(pgctl) -D '\(dataDirectory!.path)' -m immediate stop"
        let asUser = runAs.map { "runuser -u \($0) -- " } ?? ""
        let script =
            "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(asUser)\(stop) >/dev/null 2>&1; rm -rf '\(folder.path)'"
        _ = try? Self.spawn(["/bin/sh", "-c", script], output: "/dev/null")
    }

    /// Shell commands closing every descriptor but the standard three: what the server and the
    /// watcher inherit from this process stays open as long as they run, and a socket of a
    /// child Foundation's `Process` started meanwhile, held open, hides that child's end.
    private static let closingInheritedDescriptors =
        "for fd in /proc/$$/fd/*; do n=${fd##*/}; [ \"$n\" -gt 2 ] && eval \"exec $n>&-\"; done; "

    /// The folder of `initdb` and `pg_ctl`: `pg_config --bindir`, or Debian's versioned folder.
    private static func binaryFolder() throws -> URL {
        if let output = try? capture("pg_config", ["--bindir"]),
            FileManager.default.fileExists(atPath: output + "/initdb")
        {
            return URL(fileURLWithPath: output)
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let folder = "/usr/lib/postgresql/\(version)/bin"
            if FileManager.default.fileExists(atPath: folder + "/initdb") { return URL(fileURLWithPath: folder) }
        }
        throw PostgresTestServerError(
            message: "No PostgreSQL server programs (initdb, pg_ctl) found: run `make deps` to install postgresql.")
    }

    private static func unprivilegedUser() -> String {
        getpwnam("postgres") != nil ? "postgres" : "nobody"
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw PostgresTestServerError(message: "No socket for finding a free port.") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
            }
        }
        guard bound else { throw PostgresTestServerError(message: "Could not find a free port on 127.0.0.1.") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs `program` to its end, its output in a file (not a pipe, which a server it starts
    /// would keep open), through `posix_spawn` and `waitpid` (Foundation's `Process` can miss a
    /// child's end in a process holding many descriptors); what it printed.
    @discardableResult
    private static func run(_ program: String, _ arguments: [String], as user: String?) throws -> String {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-pg-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let command = user.map { ["/usr/sbin/runuser", "-u", $0, "--", program] + arguments } ?? [program] + arguments
        let pid = try spawn(command, output: outputFile.path)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let printed = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw PostgresTestServerError(message: "\(program) \(arguments.joined(separator: " ")) failed: \(printed)")
        }
        return printed
    }

    /// Starts `command` through `posix_spawn`, under a shell that first closes every descriptor
    /// it inherits but the standard three, its output and errors going to the file `output`.
    private static func spawn(_ command: [String], output: String) throws -> pid_t {
        let argv = ["/bin/bash", "-c", closingInheritedDescriptors + "exec \"$@\"", "bash"] + command
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else {
            throw PostgresTestServerError(message: "Could not start \(command[0]): error \(spawned).")
        }
        return pid
    }

    private static func capture(_ program: String, _ arguments: [String]) throws -> String {
        try run("/usr/bin/env", [program] + arguments, as: nil).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why the test server could not start.
public struct PostgresTestServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with the output of the program that failed.
    public let message: String
    /// The message.
    public var description: String { message }
}
