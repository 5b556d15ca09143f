import ArgumentParser
import Foundation
import Strata
import StrataXcodeModel

/// The `--model` and `--model-version` options of the commands that read objects.
struct ModelOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The store's model: a model JSON file, an .xcdatamodeld bundle, an .xcdatamodel, a compiled .momd "
                + "or .mom; by default the model the store records.", valueName: "model"))
    var model: String?

    @Option(
        help: ArgumentHelp(
            "The version of an .xcdatamodeld or .momd bundle to use instead of its current one.", valueName: "name"))
    var modelVersion: String?

    /// The versioned model `--model` names, when it is an `.xcdatamodeld` or `.momd` bundle
    /// and no `--model-version` picks one of its versions.
    func versionedModel() throws -> VersionedModelFile? {
        guard let model, modelVersion == nil, model.hasSuffix(".xcdatamodeld") || model.hasSuffix(".momd") else {
            return nil
        }
        return try VersionedModelFile(path: model)
    }

    /// The model named by `--model`, or `nil` when there is none.
    func load() throws -> ManagedObjectModel? {
        guard let model else {
            if modelVersion != nil { throw CommandFailure(description: "--model-version needs --model.") }
            return nil
        }
        return try Self.load(model, version: modelVersion)
    }

    /// The model in the file at `path`: a model JSON file, an `.xcdatamodeld` or `.momd`
    /// bundle (its current version, or the one `version` names), an `.xcdatamodel` or a `.mom`.
    static func load(_ path: String, version: String?) throws -> ManagedObjectModel {
        let url = URL(fileURLWithPath: path)
        switch url.pathExtension {
        case "xcdatamodeld":
            let bundle = try XcodeVersionedModel(contentsOf: url)
            return try version.map { try bundle.model(named: $0) } ?? bundle.currentModel()
        case "xcdatamodel":
            try checkNoVersion(version)
            return try XcodeModel.load(contentsOf: url)
        case "momd":
            let bundle = try CompiledVersionedModel(contentsOf: url)
            return try version.map { try bundle.model(named: $0) } ?? bundle.currentModel()
        case "mom":
            try checkNoVersion(version)
            return try CompiledModel.load(contentsOf: url)
        default:
            try checkNoVersion(version)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw CommandFailure(description: "Cannot read the model file '\(url.path)'.")
            }
            return try ManagedObjectModel(jsonData: data)
        }
    }

    private static func checkNoVersion(_ version: String?) throws {
        if version != nil {
            throw CommandFailure(description: "--model-version applies only to an .xcdatamodeld or .momd bundle.")
        }
    }
}
