import Foundation
import Strata

/// What a crafted store may say an external data file is called, as the bytes between the
/// marker and the closing zero, and how tests recognise the error it must give.
public enum HostileFileNames {
    /// The names tried: relative and absolute paths (`victim` is an absolute path of a file that
    /// must survive), `.` and `..`, empty, over-long and non-UTF-8 names, and a UUID followed by
    /// a path.
    public static func all(victim: String) -> [(label: String, bytes: [UInt8])] {
        [
            ("../../victim", Array("../../victim".utf8)),
            ("an absolute path", Array(victim.utf8)),
            (".", Array(".".utf8)),
            ("..", Array("..".utf8)),
            ("empty", []),
            ("over-long", Array(String(repeating: "A", count: 5_000).utf8)),
            ("non-UTF-8", [0xFF, 0xFE, 0x2F, 0x2E, 0x2E]),
            ("a UUID then ../", Array((UUID().uuidString + "/../../victim").utf8)),
        ]
    }

    /// Whether `error`, or an error it wraps, is a `corrupt` store error whose message holds
    /// `text`.
    public static func isCorrupt(_ error: any Error, naming text: String) -> Bool {
        var current: (any Error)? = error
        while let error = current {
            if let store = error as? StoreError, store.code == .corrupt, store.message.contains(text) { return true }
            current = (error as? StoreError)?.underlying ?? (error as? ContextError)?.underlying
        }
        return false
    }
}
