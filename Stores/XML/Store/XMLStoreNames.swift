import Foundation
import Strata

/// How names appear in an XML store: Core Data writes entity names in upper case (`PERSON`)
/// and property names in lower case (`firstname`), and matches them without regard to case.
/// This table maps them back to the model's names.
///
/// With a model, every entity and property is known; without one (a file that does not carry
/// its model, opened without one), entity names come from the metadata's version hashes and
/// property names stay as the file spells them.
struct XMLStoreNames {
    /// The model's resolved form, when known.
    let schema: ModelSchema?
    private let entitiesByFileName: [String: String]
    private let propertiesByFileName: [String: [String: String]]
    private let recordedHashesByFileName: [String: [UInt8]]

    /// A table for the store `metadata` describes: its names are those of the model the
    /// metadata records (`StrataModelJSON`), else of `model`, else of the entities it has
    /// version hashes for.
    ///
    /// - Throws: `StoreError/Code/corrupt` naming `path` when the recorded model does not
    ///   load; `ModelError` when `model` is needed and invalid; `StoreError/Code/unsupported`
    ///   as ``init(schema:versionHashes:)`` does.
    init(metadata: StoreMetadata, model: ManagedObjectModel?, path: String) throws {
        let schema: ModelSchema?
        if let json = metadata.modelJSON {
            do {
                schema = try RecordedModelCache.schema(for: json)
            } catch {
                throw StoreError(
                    code: .corrupt, message: "'\(path)': the model recorded in the metadata does not load.",
                    underlying: error)
            }
        } else {
            try model?.freeze()
            schema = model?.schema
        }
        try self.init(schema: schema, versionHashes: metadata.versionHashes)
    }

    /// A table for `schema`, or, without one, for the entities named in `versionHashes`.
    ///
    /// - Throws: `StoreError/Code/unsupported` when two entities, or two properties of one
    ///   entity, differ only in case: an XML store cannot tell them apart.
    init(schema: ModelSchema?, versionHashes: [String: [UInt8]]) throws {
        self.schema = schema
        let entityNames = schema?.entities.map(\.name) ?? Array(versionHashes.keys)
        entitiesByFileName = try Self.table(entityNames, Self.fileName(ofEntity:), "the entities")
        var properties: [String: [String: String]] = [:]
        for entity in schema?.entities ?? [] {
            let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
            properties[entity.name] = try Self.table(
                names, Self.fileName(ofProperty:), "the properties of entity '\(entity.name)'")
        }
        propertiesByFileName = properties
        recordedHashesByFileName = Dictionary(
            versionHashes.map { (Self.fileName(ofEntity: $0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the store was written with another model than this table's for the entity the
    /// file calls `fileName`: the metadata has a version hash for it that the model does not
    /// match (or the model lacks the entity). A name or value the model cannot explain is then
    /// a model mismatch rather than damage.
    func isFromAnotherModel(entity fileName: String) -> Bool {
        guard let schema, let recorded = recordedHashesByFileName[Self.fileName(ofEntity: fileName)] else {
            return false
        }
        return entityName(fileName).flatMap { schema.entitiesByName[$0]?.versionHash } != recorded
    }

    /// How the file spells the entity `name`.
    static func fileName(ofEntity name: String) -> String { name.uppercased() }

    /// How the file spells the property `name`.
    static func fileName(ofProperty name: String) -> String { name.lowercased() }

    /// The entity the file calls `fileName`, if the model or metadata has it.
    func entityName(_ fileName: String) -> String? {
        entitiesByFileName[fileName] ?? entitiesByFileName[Self.fileName(ofEntity: fileName)]
    }

    /// The property of `entity` the file calls `fileName`: the model's name, or without a
    /// model the file's own; `nil` when the model's entity has no such property.
    func propertyName(_ fileName: String, of entity: String) -> String? {
        guard schema != nil else { return fileName }
        let properties = propertiesByFileName[entity]
        return properties?[fileName] ?? properties?[Self.fileName(ofProperty: fileName)]
    }

    private static func table(
        _ names: [String], _ spelling: (String) -> String, _ what: String
    ) throws -> [String: String] {
        var table: [String: String] = [:]
        for name in names.sorted() {
            let key = spelling(name)
            if let other = table[key], other != name {
                throw StoreError(
                    code: .unsupported,
                    message:
                        "An XML store cannot hold \(what) '\(other)' and '\(name)': their names differ only in case.")
            }
            table[key] = name
        }
        return table
    }
}
