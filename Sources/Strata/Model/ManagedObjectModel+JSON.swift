import Foundation

/// The model's JSON form: a lossless, canonical description that stores embed in their
/// metadata so that tools can open a store without the application's model.
///
/// ```json
/// {
///   "format" : "strata.model",
///   "formatVersion" : 1,
///   "versionIdentifiers" : [ "2" ],
///   "entities" : [ { "name" : "Post", "attributes" : [ { "name" : "title", "type" : "String", "optional" : true } ] } ],
///   "configurations" : { "Cloud" : [ "Post" ] },
///   "fetchRequestTemplates" : [ { "name" : "recent", "entity" : "Post", "predicate" : "date > $SINCE" } ]
/// }
/// ```
/// Keys are sorted and most options at their default value are left out (optionality,
/// counts, delete rules and index element order are always written), so the same model
/// always gives the same bytes: JSON → model → JSON is identical, and version hashes are
/// equal. Attribute types use Xcode's names (`"Integer 16"`); values use the tagged form
/// of ``AttributeValue``'s `Codable` conformance.
extension ManagedObjectModel {
    /// The name in the `format` key.
    static let jsonFormatName = "strata.model"
    /// The `formatVersion` this version of Strata writes and reads.
    public static let jsonFormatVersion = 1

    private struct Document: Codable {
        var format: String
        var formatVersion: Int
        var versionIdentifiers: [String]?
        var entities: [EntityDescription]
        var configurations: [String: [String]]?
        var fetchRequestTemplates: [FetchRequestTemplate]?
    }

    /// The model's JSON form (UTF-8, pretty-printed, keys sorted).
    public func jsonData() -> Data {
        let (parts, versionIdentifiers, _) = contents()
        let document = Document(
            format: Self.jsonFormatName, formatVersion: Self.jsonFormatVersion,
            versionIdentifiers: versionIdentifiers.isEmpty ? nil : versionIdentifiers, entities: parts.entities,
            configurations: parts.configurations.isEmpty ? nil : parts.configurations,
            fetchRequestTemplates: parts.fetchRequestTemplates.isEmpty ? nil : parts.fetchRequestTemplates)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(document)
        } catch {
            preconditionFailure("Encoding a model to JSON cannot fail: \(error)")
        }
    }

    /// Reads a model from its JSON form. The model is not frozen.
    ///
    /// - Throws: ``ModelError`` with code ``ModelError/Code/malformedFile`` naming the
    ///   offending key path, or ``ModelError/Code/unsupportedFormat`` for another format or
    ///   a newer format version.
    public convenience init(jsonData data: Data) throws(ModelError) {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw ModelError(
                code: .malformedFile, message: "The model JSON is not valid: \(Self.describe(error))", underlying: error
            )
        } catch {
            throw ModelError(code: .malformedFile, message: "The model JSON is not valid: \(error)")
        }
        guard document.format == Self.jsonFormatName else {
            throw ModelError(
                code: .unsupportedFormat,
                message: "The JSON is a '\(document.format)' document, not a '\(Self.jsonFormatName)' model.")
        }
        guard document.formatVersion <= Self.jsonFormatVersion else {
            throw ModelError(
                code: .unsupportedFormat,
                message:
                    "The model JSON has format version \(document.formatVersion); this Strata reads up to version \(Self.jsonFormatVersion)."
            )
        }
        self.init(
            entities: document.entities, configurations: document.configurations ?? [:],
            fetchRequestTemplates: document.fetchRequestTemplates ?? [],
            versionIdentifiers: document.versionIdentifiers ?? [])
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "at the top level" : "at '\(keys.drop { $0 == "." })'"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)' \(path(context))."
        case .typeMismatch(_, let context): return "\(context.debugDescription) \(path(context))."
        case .valueNotFound(_, let context): return "\(context.debugDescription) \(path(context))."
        case .dataCorrupted(let context): return "\(context.debugDescription) \(path(context))."
        @unknown default: return "\(error)"
        }
    }
}
