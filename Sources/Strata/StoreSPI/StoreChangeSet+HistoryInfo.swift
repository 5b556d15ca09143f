import Foundation

extension StoreChangeSet {
    /// Who saves a change set, for a store that records it in its persistent history.
    public struct HistoryInfo: Sendable, Hashable {
        /// When the save was made.
        public var timestamp: Date
        /// The saving context's ``ManagedObjectContext/transactionAuthor``.
        public var author: String?
        /// The saving context's name.
        public var contextName: String?
        /// The name of the saving process.
        public var processIdentifier: String?
        /// The bundle identifier of the saving application, when it has one.
        public var bundleIdentifier: String?

        /// Creates the record of a save made now by this process.
        public init(
            timestamp: Date = Date(), author: String? = nil, contextName: String? = nil,
            processIdentifier: String? = HistoryInfo.currentProcessName,
            bundleIdentifier: String? = HistoryInfo.currentBundleIdentifier
        ) {
            self.timestamp = timestamp
            self.author = author
            self.contextName = contextName
            self.processIdentifier = processIdentifier
            self.bundleIdentifier = bundleIdentifier
        }

        /// The name of this process, as transactions record it.
        public static let currentProcessName = ProcessInfo.processInfo.processName
        /// The bundle identifier of this process's application, when it has one, as
        /// transactions record it.
        public static let currentBundleIdentifier = mainBundleIdentifier()

        /// `Bundle.main`'s identifier. On Linux, Foundation traps making `Bundle.main` when the
        /// folder of the executable cannot be entered, as happens to a process that gave up
        /// root after starting from a folder only root may enter: that folder is checked first,
        /// and a process that cannot enter it records no bundle identifier.
        private static func mainBundleIdentifier() -> String? {
            #if os(Linux)
                guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
                    access(URL(fileURLWithPath: executable).deletingLastPathComponent().path, X_OK) == 0
                else { return nil }
            #endif
            return Bundle.main.bundleIdentifier
        }
    }
}
