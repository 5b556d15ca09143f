import Foundation
import Logging
import Strata
import StrataXcodeModel

/// Small model files written to a temporary folder, for the options no fixture has.
enum ModelXML {
    /// A complete model file: the XML declaration, then a `<model>` element with Xcode's usual
    /// root attributes around `body`.
    static func file(_ body: String, rootAttributes: String = "userDefinedModelVersionIdentifier=\"\"") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" \
        systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" \(rootAttributes)>
        \(body)
        </model>
        """
    }

    /// Writes `text` as `Test.xcdatamodel/contents` in `directory` and loads it.
    static func load(
        _ text: String, in directory: TemporaryDirectory, logger: Logger = XcodeModel.defaultLogger
    ) throws(ModelError) -> ManagedObjectModel {
        let url: URL
        do {
            url = try directory.write(text, to: "Test.xcdatamodel/contents")
        } catch {
            preconditionFailure("Cannot write a test model: \(error)")
        }
        return try XcodeModel.load(contentsOf: url.deletingLastPathComponent(), logger: logger)
    }

    /// Loads a model whose `<model>` element holds `body`.
    static func load(body: String, logger: Logger = XcodeModel.defaultLogger) throws -> ManagedObjectModel {
        try load(file(body), in: TemporaryDirectory(), logger: logger)
    }

    /// The first attribute of the single entity of a model whose only entity holds
    /// `<attribute … attributes/>`.
    static func attribute(_ attributes: String) throws -> AttributeDescription {
        let model = try load(body: "<entity name=\"E\"><attribute name=\"a\" \(attributes)/></entity>")
        return model.entities[0].attributes[0]
    }

    /// The error loading a model whose `<model>` element holds `body` throws, if any.
    static func error(body: String) -> ModelError? {
        error(file(body))
    }

    /// The error loading the model file `text` throws, if any.
    static func error(_ text: String, in directory: TemporaryDirectory? = nil) -> ModelError? {
        do {
            _ = try load(text, in: directory ?? TemporaryDirectory())
            return nil
        } catch let error as ModelError {
            return error
        } catch {
            preconditionFailure("Unexpected error: \(error)")
        }
    }
}
