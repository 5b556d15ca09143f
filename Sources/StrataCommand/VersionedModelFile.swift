import Foundation
import Strata
import StrataXcodeModel

/// The versioned model `strata migrate` steps a store through: an `.xcdatamodeld` bundle or a
/// compiled `.momd`, as a migration plan of its versions.
struct VersionedModelFile {
    let url: URL
    /// Every version, in the bundle's order, without mapping models.
    let plan: MigrationPlan
    let currentVersionName: String

    init(path: String) throws {
        url = URL(fileURLWithPath: path)
        switch url.pathExtension {
        case "xcdatamodeld":
            let bundle = try XcodeVersionedModel(contentsOf: url)
            (plan, currentVersionName) = (try bundle.migrationPlan(), bundle.currentVersionName)
        case "momd":
            let bundle = try CompiledVersionedModel(contentsOf: url)
            (plan, currentVersionName) = (try bundle.migrationPlan(), bundle.currentVersionName)
        default:
            throw CommandFailure(description: "'\(url.path)' is not an .xcdatamodeld or .momd bundle.")
        }
    }

    /// The version named `name`.
    func model(named name: String) throws -> ManagedObjectModel {
        guard let version = plan.versions.first(where: { $0.name == name }) else {
            throw CommandFailure(
                description: "'\(url.lastPathComponent)' has no version '\(name)'; its versions are: "
                    + plan.versions.map(\.name).joined(separator: ", ") + ".")
        }
        return version.model
    }

    /// The mapping model at `url`: a compiled `.cdm`, or an `.xcmappingmodel` between two of
    /// the bundle's versions.
    func mappingModel(at url: URL) throws -> MappingModel {
        if url.pathExtension == "cdm" { return try MappingModelFile.loadCompiled(contentsOf: url) }
        let names = try MappingModelFile.versionNames(ofXcodeMappingModelAt: url)
        guard let source = names.source, let destination = names.destination else {
            throw CommandFailure(description: "The mapping model '\(url.path)' does not name its models.")
        }
        return try MappingModelFile.load(
            contentsOf: url, sourceModel: try model(named: source), destinationModel: try model(named: destination))
    }
}
