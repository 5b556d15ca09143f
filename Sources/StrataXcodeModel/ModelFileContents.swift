import Foundation
import Strata

/// Reads the bytes of a model, mapping model or version file, as every reader of this module
/// does.
enum ModelFileContents {
    /// The contents of the file at `url`.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/unreadableFile` naming the file when
    ///   it cannot be read.
    static func read(_ url: URL) throws(ModelError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ModelError(
                code: .unreadableFile, message: "Cannot read '\(url.path)': \(error.localizedDescription)",
                filePath: url.path, underlying: error)
        }
    }
}
