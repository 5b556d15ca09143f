import Foundation
import Strata
import StrataXcodeModel

/// Reads the input as a model (or mapping model) file of the target's kind; a model that
/// reads is frozen and written as JSON, as the coordinator and the stores would use it.
enum ModelFuzzing {
    static func run(_ target: FuzzTarget, _ input: Data, in folder: URL) throws {
        let model: ManagedObjectModel
        switch target {
        case .xcodeModel:
            let file = folder.appendingPathComponent("contents")
            try write(input, to: file)
            model = try XcodeModel.load(contentsOf: file)
        case .compiledModel:
            model = try CompiledModel.load(archive: input, file: "input.mom")
        case .modelCache:
            model = try CompiledModel.load(modelCache: input, file: "input.sqlite")
        case .mappingModel:
            let file = folder.appendingPathComponent("input.cdm")
            try write(input, to: file)
            _ = try MappingModelFile.loadCompiled(contentsOf: file)
            return
        default:
            model = try ManagedObjectModel(jsonData: input)
        }
        try model.freeze()
        _ = model.jsonData()
    }

    /// Writes `input` to `file`; a failure is the machine's, not the parser's, so it stops.
    static func write(_ input: Data, to file: URL) throws {
        do {
            try input.write(to: file)
        } catch {
            fatalError("Could not write the fuzz input to '\(file.path)': \(error)")
        }
    }
}
