import ArgumentParser
import Foundation
import Strata
import StrataStores

/// `strata migrate STORE --model BUNDLE`: steps a store through a versioned model's versions.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrate a store to a newer version of its model, step by step.",
        discussion: """
            The store's version is found among the versions of the .xcdatamodeld bundle by its \
            metadata. Each step runs a mapping model given with --mapping (an .xcmappingmodel or a \
            compiled .cdm) whose source is the store's version, or else an inferred mapping to the \
            next version. The store is replaced only when every step succeeded; it keeps its type. \
            Mapping models that name custom migration policies cannot run here: use the library.
            """)

    @Argument(help: "The store to migrate, in place.")
    var store: String

    @Option(
        help: ArgumentHelp(
            "The store's versioned model: an .xcdatamodeld or compiled .momd bundle.", valueName: "bundle"))
    var model: String

    @Option(help: ArgumentHelp("The version to migrate to; by default the bundle's current one.", valueName: "name"))
    var toVersion: String?

    @Option(
        name: .customLong("mapping"),
        help: ArgumentHelp("A mapping model for a step (.xcmappingmodel or .cdm); may be repeated.", valueName: "path"))
    var mappings: [String] = []

    @Flag(help: "Refuse a step that has no mapping model instead of inferring one.")
    var noInference = false

    func run() throws {
        try reportingFailure {
            let file = try StoreFile(path: store)
            let bundle = try VersionedModelFile(path: model)
            let targetName = toVersion ?? bundle.currentVersionName
            let target = try bundle.model(named: targetName)
            let mappingModels = try mappings.map { try bundle.mappingModel(at: URL(fileURLWithPath: $0)) }
            guard let type = StoreType.builtInFileTypes.first(where: { $0.name == file.typeName }) else {
                throw CommandFailure(
                    description: "'\(file.name)' is a \(file.typeName) store, which cannot be migrated here.")
            }
            let progress = ProgressDisplay(verb: "Migrated")
            var plan = bundle.plan
            plan.mappingModels = mappingModels
            let steps = try plan.migrateStore(
                at: file.url, type: type, configuration: file.configuration(in: target), to: target,
                allowsInference: !noInference
            ) { progress.show($0) }
            progress.finish()
            guard !steps.isEmpty else {
                print("The \(file.typeName) store at '\(file.name)' already matches version '\(targetName)'.")
                return
            }
            print("Migrated the \(file.typeName) store at '\(file.name)' to version '\(targetName)':")
            for step in steps {
                let how = step.isInferred ? "inferred mapping" : "mapping model"
                print("  \(step.source.name) → \(step.destination.name) (\(how))")
            }
        }
    }
}
