import Foundation
import Strata

/// Reads mapping models as Xcode makes them: the `.xcmappingmodel` folders its mapping editor
/// writes, and the `.cdm` files its `mapc` compiler makes from them.
///
/// ```swift
/// let compiled = try MappingModelFile.loadCompiled(contentsOf: url.appendingPathComponent("V2toV3.cdm"))
/// let edited = try MappingModelFile.load(
///     contentsOf: url.appendingPathComponent("V2toV3.xcmappingmodel"), sourceModel: version2, destinationModel: version3)
/// ```
///
/// The mapping's value expressions are Core Data's archived `NSExpression`s, read as
/// `FetchExpression`s (see docs/MIGRATION.md for which kinds); its entity migration
/// policies are names, found among the policies registered with the migration.
public enum MappingModelFile {
    /// Reads the compiled mapping model (`.cdm`) at `url`.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/unreadableFile` when the file cannot
    ///   be read, `ModelError/Code/malformedFile` when it is not an archived `NSMappingModel`,
    ///   and `ModelError/Code/unsupportedFormat` for an expression Strata does not evaluate.
    public static func loadCompiled(contentsOf url: URL) throws(ModelError) -> MappingModel {
        let archive = try KeyedArchive(data: try ModelFileContents.read(url), file: url.path)
        let root = try archive.topObject()
        guard root.isKind(of: "NSMappingModel"), let mappings = try root.objects("NSEntityMappings") else {
            throw ModelError(
                code: .malformedFile,
                message: "'\(url.path)' is not a compiled mapping model: its root is a "
                    + "\(root.className) without entity mappings.", filePath: url.path)
        }
        var entityMappings: [EntityMapping] = []
        for mapping in mappings { entityMappings.append(try compiledEntityMapping(mapping)) }
        return MappingModel(entityMappings: entityMappings)
    }

    private static func compiledEntityMapping(_ object: KeyedArchive.Object) throws(ModelError) -> EntityMapping {
        let source = try object.string("NSSourceEntityName")
        let destination = try object.string("NSDestinationEntityName")
        var mapping = EntityMapping(
            name: try object.string("NSMappingName") ?? "\(source ?? "")To\(destination ?? "")",
            kind: kind(code: try object.integer("NSMappingType") ?? 0, source: source, destination: destination),
            sourceEntityName: source, destinationEntityName: destination,
            attributeMappings: try compiledPropertyMappings(object.objects("NSAttributeMappings")),
            relationshipMappings: try compiledPropertyMappings(object.objects("NSRelationshipMappings")),
            sourceFilter: try sourceFilter(object.object("NSSourceExpression")),
            migrationPolicyName: try object.string("NSEntityMigrationPolicyClassName"),
            userInfo: try userInfo(object.dictionary("NSUserInfo")))
        mapping.sourceEntityVersionHash = try object.data("NSSourceEntityVersionHash").map { Array($0) }
        mapping.destinationEntityVersionHash = try object.data("NSDestinationEntityVersionHash").map { Array($0) }
        return mapping
    }

    private static func compiledPropertyMappings(_ objects: [KeyedArchive.Object]?) throws(ModelError)
        -> [PropertyMapping]
    {
        var mappings: [PropertyMapping] = []
        for object in objects ?? [] {
            guard let name = try object.string("NSDestinationPropertyName") else {
                throw ModelError(
                    code: .malformedFile,
                    message: "'\(object.archive.file)': a property mapping (object \(object.index)) names no "
                        + "destination property.",
                    filePath: object.archive.file)
            }
            mappings.append(
                PropertyMapping(
                    name: name, valueExpression: try object.object("NSValueExpression").map(ArchivedExpression.decode),
                    userInfo: try userInfo(object.dictionary("NSUserInfo"))))
        }
        return mappings
    }

    /// The predicate of an entity mapping's source expression, `FETCH(…,
    /// fetchRequestForSourceEntityNamed:predicateString:)`; `nil` for `TRUEPREDICATE`.
    private static func sourceFilter(_ expression: KeyedArchive.Object?) throws(ModelError) -> FetchPredicate? {
        guard let request = try expression?.object("NSFRExpression"),
            let arguments = try request.objects("NSArguments"),
            arguments.count == 2, let text = try arguments[1].string("NSConstantValue")
        else { return nil }
        return try predicate(text, file: expression?.archive.file ?? "")
    }

    /// `text` as a predicate; `nil` for one that holds for every object.
    static func predicate(_ text: String, file: String) throws(ModelError) -> FetchPredicate? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed != "TRUEPREDICATE" else { return nil }
        do {
            return try FetchPredicate(format: trimmed)
        } catch {
            throw ModelError(
                code: .malformedFile, message: "'\(file)' has a source filter that does not parse: \(error)",
                filePath: file, underlying: error)
        }
    }

    /// The kind of Core Data's `NSEntityMappingType` `code`; an undefined one by what the
    /// mapping names.
    static func kind(code: Int64, source: String?, destination: String?) -> EntityMapping.Kind {
        switch code {
        case 1: .custom
        case 2: .add
        case 3: .remove
        case 4: .copy
        case 5: .transform
        default: source == nil ? .add : destination == nil ? .remove : .transform
        }
    }

    static func userInfo(_ entries: [String: PropertyListValue]?) -> [String: String] {
        (entries ?? [:]).compactMapValues { value in
            value.string ?? value.integer.map { String($0) } ?? value.real.map { String($0) }
        }
    }

}
