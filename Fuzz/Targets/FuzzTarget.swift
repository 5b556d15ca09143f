import Foundation
import Strata

/// One parser of outside input that the fuzzer drives: `make fuzz` runs each for a set time,
/// and the tests replay every input kept under `Tests/Fixtures/fuzz/<target>/`.
///
/// An input passes when the parser returns or throws the typed error its documentation
/// names; anything else (a crash, a trap, another kind of error, a broken documented
/// property) stops the process, which is how libFuzzer recognises a finding.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// Predicate format strings: parsed, evaluated, and parsed again from their description.
    case predicate
    /// Xcode model `contents` files (XML), then frozen as the coordinator would.
    case xcodeModel
    /// Compiled `.mom` files (keyed archives in binary property lists), then frozen.
    case compiledModel
    /// Raw-deflated model caches as SQLite stores keep them in `Z_MODELCACHE`.
    case modelCache
    /// Compiled mapping models (`.cdm`).
    case mappingModel
    /// Models in Strata's JSON form.
    case jsonModel
    /// Keyed archives read by the transformer of transformable attributes.
    case keyedArchive
    /// XML store files.
    case xmlStore
    /// Binary store files.
    case binaryStore
    /// LMDB data files: the page check, then, when it passes, a read of every record through
    /// liblmdb.
    case lmdbFile
    /// The metadata property list of SQLite stores (`Z_METADATA.Z_PLIST`).
    case sqliteMetadata

    /// Runs the target on `input`, using `folder` (which must exist) for the file a
    /// file-reading target writes; returns whether the input was read without an error.
    @discardableResult
    package func run(_ input: Data, in folder: URL) -> Bool {
        do {
            switch self {
            case .predicate: try PredicateFuzzing.run(input)
            case .xcodeModel, .compiledModel, .modelCache, .mappingModel, .jsonModel:
                try ModelFuzzing.run(self, input, in: folder)
            case .keyedArchive: _ = try KeyedArchiveValueTransformer().value(from: input)
            case .xmlStore, .binaryStore, .sqliteMetadata: try StoreFileFuzzing.run(self, input, in: folder)
            case .lmdbFile: try LMDBFileFuzzing.run(input, in: folder)
            }
            return true
        } catch is FetchPredicateError, is ModelError, is StoreError, is ValueTransformerError {
            return false
        } catch {
            fatalError("The \(rawValue) target threw \(type(of: error)), not a typed Strata error: \(error)")
        }
    }
}
