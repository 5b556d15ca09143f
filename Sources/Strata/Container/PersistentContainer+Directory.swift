import Foundation

extension PersistentContainer {
    /// The directory containers put their stores in by default: on Linux the XDG data
    /// directory (`$XDG_DATA_HOME`, or `~/.local/share` when it is unset or not absolute),
    /// elsewhere the user's Application Support directory.
    public static func defaultDirectoryURL(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        #if os(Linux)
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                return URL(fileURLWithPath: data, isDirectory: true)
            }
            let home = environment["HOME"] ?? NSHomeDirectory()
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                ".local/share", isDirectory: true)
        #else
            return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        #endif
    }
}
