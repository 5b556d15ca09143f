import Foundation
import Strata

/// Helpers that edit XML store files on disk for tests.
enum XMLStoreTestFiles {
    /// Rewrites the closed store file at `url` so that its `<version>` is one past the format
    /// version Strata reads.
    @Sendable static func markNewerFormatVersion(at url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        let current = "<version>134481920</version>"
        guard text.contains(current) else {
            throw StoreError(code: .corrupt, message: "'\(url.path)' has no format version to replace.")
        }
        try text.replacingOccurrences(of: current, with: "<version>134481921</version>")
            .write(to: url, atomically: true, encoding: .utf8)
    }
}
