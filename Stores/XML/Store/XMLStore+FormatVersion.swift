import Foundation
import Strata

extension XMLStore {
    /// The format version in `<databaseInfo><version>` of the XML store file at `url`
    /// (134481920 in every file Core Data and Strata write), read without reading its objects.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/io` when there is no file or it
    ///   cannot be read, `StoreError/Code/corrupt` naming the position when it has no
    ///   version number before its first object.
    static func formatVersion(ofStoreAt url: URL) throws -> Int64 {
        guard let version = try reading(url, XMLStoreReader.formatVersion) else {
            throw StoreError(code: .io, message: "There is no XML store at '\(url.path)'.")
        }
        return version
    }
}

extension XMLStoreReader {
    /// The number in the document's first `<version>` element, which Core Data's files hold
    /// in `<databaseInfo>`, before any object.
    static func formatVersion(_ reader: XMLTextReader) throws -> Int64 {
        while true {
            switch try reader.next() {
            case .start("version", let isEmpty):
                let text = try PropertyListValue.text(of: "version", isEmpty: isEmpty, from: reader)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                guard let version = Int64(text) else {
                    throw reader.corrupt("<version> holds '\(text)', not a number.")
                }
                return version
            case .start("object", _), .endOfDocument:
                throw reader.corrupt("<databaseInfo> has no <version> number.")
            case .start, .end, .text:
                continue
            }
        }
    }
}
