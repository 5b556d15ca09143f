import Foundation
import Strata

extension XcodeVersionedModel {
    /// Reads the Xcode mapping model at `url` between two versions of this model, found by
    /// the model paths the mapping model records
    /// (``MappingModelFile/load(contentsOf:sourceModel:destinationModel:)``).
    ///
    /// ```swift
    /// let bundle = try XcodeVersionedModel(contentsOf: modelURL)
    /// let step = try bundle.mappingModel(contentsOf: mappingsURL.appendingPathComponent("Migration1to2.xcmappingmodel"))
    /// try bundle.migrationPlan(mappingModels: [step]).migrateStore(at: storeURL, type: .sqlite, to: bundle.currentModel())
    /// ```
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` when the mapping model
    ///   names a version this model does not have, or as the mapping model's reader does.
    public func mappingModel(contentsOf url: URL) throws(ModelError) -> MappingModel {
        let names = try MappingModelFile.versionNames(ofXcodeMappingModelAt: url)
        func version(_ name: String?, _ role: String) throws(ModelError) -> ManagedObjectModel {
            guard let name, versionNames.contains(name) else {
                throw ModelError(
                    code: .malformedFile,
                    message: "The mapping model '\(url.path)' maps from '\(names.source ?? "?")' to "
                        + "'\(names.destination ?? "?")'; '\(self.url.lastPathComponent)' has no \(role) version "
                        + "'\(name ?? "?")' (its versions: \(versionNames.joined(separator: ", "))).",
                    filePath: url.path)
            }
            return try model(named: name)
        }
        return try MappingModelFile.load(
            contentsOf: url, sourceModel: try version(names.source, "source"),
            destinationModel: try version(names.destination, "destination"))
    }
}
