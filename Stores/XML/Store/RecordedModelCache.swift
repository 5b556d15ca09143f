import Foundation
import Strata

/// The model a store file records (`StrataModelJSON`), decoded and frozen once: every load and
/// save of a store needs it, and decoding and validating a model on each one would slow every
/// save down. Keeps the most recent model only, which is the one a store open in this process
/// uses.
enum RecordedModelCache {
    private static let recent = Locked<(json: Data, schema: ModelSchema)?>(nil)

    /// The resolved model whose JSON form is `json`.
    ///
    /// - Throws: `ModelError` when `json` is not a valid model.
    static func schema(for json: Data) throws -> ModelSchema {
        if let cached = recent.withLock({ $0 }), cached.json == json { return cached.schema }
        let model = try ManagedObjectModel(jsonData: json)
        try model.freeze()
        recent.withLock { $0 = (json, model.schema) }
        return model.schema
    }
}
