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

extension XcodeVersionedModel: VersionedModelBundle {}
extension CompiledVersionedModel: VersionedModelBundle {}
