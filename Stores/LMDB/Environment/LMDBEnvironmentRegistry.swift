import Foundation
import Strata

/// The environments open in this process, one per data file. liblmdb forbids opening one file
/// twice in a process (closing the second handle would drop the first one's file locks), so
/// stores, metadata reads and metadata writes on the same file share one environment. Files
/// are told apart by device and inode, so a store destroyed and made again at the same path
/// gets a new environment.
enum LMDBEnvironmentRegistry {
    private struct Entry: Sendable {
        weak var environment: LMDBEnvironment?
    }

    private static let environments = Locked<[String: Entry]>([:])

    /// The environment of the file at `path`: the one already open in this process, or a new one.
    ///
    /// - Parameters:
    ///   - writes: Whether the caller writes; the open environment must then be writable.
    ///   - readOnly: Whether a new environment is opened read-only (`MDB_RDONLY`).
    ///   - relaxedDurability: The durability a store asks for; `nil` takes whichever the open
    ///     environment has (a new one is durable).
    /// - Throws: `StoreError` with code `StoreError/Code/inUse` when the file is open with
    ///   other settings (read-only while writing is asked for, or another durability);
    ///   ``LMDBError`` when liblmdb cannot open it.
    static func environment(
        path: String, writes: Bool, readOnly: Bool, relaxedDurability: Bool?, mapSize: Int?
    ) throws -> LMDBEnvironment {
        try environments.withLock { environments in
            if let key = fileKey(path), let open = environments[key]?.environment {
                guard !writes || !open.isReadOnly else {
                    throw StoreError(
                        code: .inUse, message: "The LMDB store at '\(path)' is open read-only in this process.")
                }
                guard relaxedDurability == nil || open.hasRelaxedDurability == relaxedDurability else {
                    throw StoreError(
                        code: .inUse,
                        message: "The LMDB store at '\(path)' is open in this process with another relaxedDurability.")
                }
                return open
            }
            let environment = try LMDBEnvironment(
                path: path, readOnly: readOnly, relaxedDurability: relaxedDurability ?? false, mapSize: mapSize)
            environments = environments.filter { $0.value.environment != nil }
            if let key = fileKey(path) { environments[key] = Entry(environment: environment) }
            return environment
        }
    }

    /// The device and inode of the file at `path`; `nil` when there is none.
    private static func fileKey(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_dev):\(status.st_ino)"
    }
}
