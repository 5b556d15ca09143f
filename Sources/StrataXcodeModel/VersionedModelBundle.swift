import Foundation
import Strata

/// A folder of model versions, source (`.xcdatamodeld`) or compiled (`.momd`): what a
/// migration plan of every version is made from.
protocol VersionedModelBundle {
    /// The name of every version, oldest first.
    var versionNames: [String] { get }
    /// Reads the version named `name`.
    func model(named name: String) throws(ModelError) -> ManagedObjectModel
}

extension VersionedModelBundle {
    /// A plan of every version, in ``versionNames`` order, each named by its version's name.
    func plan(mappingModels: [MappingModel], policies: [String: any MigrationPolicy]) throws(ModelError)
        -> MigrationPlan
    {
        var versions: [MigrationPlan.Version] = []
        for name in versionNames { versions.append(MigrationPlan.Version(name: name, model: try model(named: name))) }
        return MigrationPlan(versions: versions, mappingModels: mappingModels, policies: policies)
    }
}

extension VersionedModelBundle {
    /// The names of the versions in the folder at `url`: its entries ending in `suffix`, without
    /// it, in numeric order (`Model`, `Model 2`, …, `Model 10`).
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/unreadableFile` when the folder cannot
    ///   be listed (naming it as `folderKind`), or holds no version (with `emptyMessage`).
    static func versionNames(
        in url: URL, suffix: String, folderKind: String, emptyMessage: String
    ) throws(ModelError) -> [String] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ModelError(
                code: .unreadableFile,
                message: "Cannot list the \(folderKind) '\(url.path)': \(error.localizedDescription)",
                filePath: url.path, underlying: error)
        }
        let names = entries.filter { $0.hasSuffix(suffix) && $0.count > suffix.count }
            .map { String($0.dropLast(suffix.count)) }
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
        guard !names.isEmpty else {
            throw ModelError(code: .unreadableFile, message: emptyMessage, filePath: url.path)
        }
        return names
    }
}

extension XcodeVersionedModel: VersionedModelBundle {}
extension CompiledVersionedModel: VersionedModelBundle {}
