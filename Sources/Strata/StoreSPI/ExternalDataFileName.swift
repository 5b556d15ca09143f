import Foundation

/// The name of a file of external binary data, as stores write it: a UUID in its 36-character
/// text form (`8-4-4-4-12` hexadecimal digits), the only names a store ever gives such a file.
///
/// A name read from a store's data, or from a listing of its folder, is data: it reaches the file
/// system only as one of these, so a store file cannot name `../victim`, an absolute path or any
/// other file outside its folder of external data.
package struct ExternalDataFileName: Hashable, Sendable, CustomStringConvertible {
    /// The name's text.
    package let text: String

    /// The text's length and the offsets of its hyphens.
    private static let length = 36
    private static let hyphens: Set<Int> = [8, 13, 18, 23]

    /// `text` as a file name, or `nil` when a store would never write it.
    package init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == Self.length,
            bytes.indices.allSatisfy({ Self.hyphens.contains($0) ? bytes[$0] == UInt8(ascii: "-") : bytes[$0].isHex })
        else { return nil }
        self.text = String(text)
    }

    /// A new, unique name.
    package static func unique() -> ExternalDataFileName {
        ExternalDataFileName(UUID().uuidString)!
    }

    /// The name of the file a write goes to before it is renamed to this name.
    package var interim: String { text + Self.interimSuffix }

    private static let interimSuffix = ".interim"

    /// Whether `listed`, a name in a folder of external data, is one a store writes there: a
    /// name, or a name's interim file. Sweeps remove nothing else.
    package static func isWritten(_ listed: String) -> Bool {
        ExternalDataFileName(listed) != nil
            || (listed.hasSuffix(interimSuffix) && ExternalDataFileName(listed.dropLast(interimSuffix.count)) != nil)
    }

    package var description: String { text }
}

extension UInt8 {
    /// Whether the byte is an ASCII hexadecimal digit, in either case.
    fileprivate var isHex: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
