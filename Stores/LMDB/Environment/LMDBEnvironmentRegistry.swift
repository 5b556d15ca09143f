import Foundation
import Strata
import Synchronization

/// The environments open in this process, one per data file. liblmdb forbids opening one file
/// twice in a process (closing the second handle would drop the first one's file locks), so
/// stores, metadata reads and metadata writes on the same file share one environment.
enum LMDBEnvironmentRegistry {
    private struct Entry: Sendable {
        weak var environment: LMDBEnvironment?
    }

    private static let environments = Mutex<[String: Entry]>([:])

    /// The environment of the file at `path`: the one already open in this process, or a new one.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/inUse`` when the file is open with
    ///   other settings (read-only while writing is asked for, or another durability);
    ///   ``LMDBError`` when liblmdb cannot open it.
    static func environment(
        path: String, readOnly: Bool, relaxedDurability: Bool, mapSize: Int?
    ) throws -> LMDBEnvironment {
        let key = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        return try environments.withLock { environments in
            if let open = environments[key]?.environment {
                guard readOnly || !open.isReadOnly else {
                    throw StoreError(
                        code: .inUse, message: "The LMDB store at '\(path)' is open read-only in this process.")
                }
                guard open.hasRelaxedDurability == relaxedDurability else {
                    throw StoreError(
                        code: .inUse,
                        message: "The LMDB store at '\(path)' is open in this process with another relaxedDurability.")
                }
                return open
            }
            let environment = try LMDBEnvironment(
                path: path, readOnly: readOnly, relaxedDurability: relaxedDurability, mapSize: mapSize)
            environments = environments.filter { $0.value.environment != nil }
            environments[key] = Entry(environment: environment)
            return environment
        }
    }
}
