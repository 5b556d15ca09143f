import Foundation
import Strata

extension MappingModelFile {
    /// Reads the Xcode mapping model at `url` (an `.xcmappingmodel` folder, or the
    /// `xcmapping.xml` inside it) that maps `sourceModel` to `destinationModel`.
    ///
    /// `xcmapping.xml` is a Core Data XML store of Xcode's mapping editor: entity mappings in
    /// `mappingNumber` order, each with its type, source and destination entities, policy and
    /// property mappings, and each property mapping with its archived value expression. A
    /// property mapping the editor left to be generated gets what `mapc` generates: `$source`'s
    /// attribute of the same name; for a relationship, the objects made from `$source`'s
    /// relationship of that name (or of its source key path), by the entity mapping it names
    /// or else by each object's own. The models give the entity version hashes that tie the
    /// mapping to its versions.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/unreadableFile` when the file cannot
    ///   be read, `ModelError/Code/malformedFile` when it is not a mapping model's store (naming
    ///   the object), and `ModelError/Code/unsupportedFormat` for an expression Strata does not
    ///   evaluate.
    public static func load(contentsOf url: URL, sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel)
        throws(ModelError) -> MappingModel
    {
        try load(
            try XcodeMappingStore(file: xcmappingFile(url)), sourceModel: sourceModel,
            destinationModel: destinationModel)
    }

    /// The names of the model versions the Xcode mapping model at `url` maps from and to: the
    /// `.xcdatamodel` folders its source and destination model paths end with, without the
    /// extension; `nil` for a path it does not record.
    public static func versionNames(ofXcodeMappingModelAt url: URL) throws(ModelError) -> (
        source: String?, destination: String?
    ) {
        let store = try XcodeMappingStore(file: xcmappingFile(url))
        let model = store.ordered.first { $0.type == "XDDEVMAPPINGMODEL" }
        func version(_ key: String) -> String? {
            model?.attributes[key].map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        }
        return (version("sourcemodelpath"), version("destinationmodelpath"))
    }

    private static func xcmappingFile(_ url: URL) -> URL {
        url.pathExtension == "xcmappingmodel" ? url.appendingPathComponent("xcmapping.xml") : url
    }

    private static func load(
        _ store: XcodeMappingStore, sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel
    ) throws(ModelError) -> MappingModel {
        try sourceModel.freeze()
        try destinationModel.freeze()
        var mappings: [(number: Int64, mapping: EntityMapping)] = []
        for object in store.ordered where object.type == "XDDEVENTITYMAPPING" {
            mappings.append(
                (
                    Int64(object.attributes["mappingnumber"] ?? "") ?? 0,
                    try entityMapping(
                        object, in: store, source: sourceModel.schema, destination: destinationModel.schema)
                ))
        }
        // A stable sort: mappings of one number keep the file's order.
        return MappingModel(
            entityMappings: mappings.enumerated().sorted {
                ($0.element.number, $0.offset) < ($1.element.number, $1.offset)
            }
            .map(\.element.mapping))
    }

    private static func entityMapping(
        _ object: XcodeMappingStore.Object, in store: XcodeMappingStore, source: ModelSchema, destination: ModelSchema
    ) throws(ModelError) -> EntityMapping {
        let sourceName = object.attributes["sourcename"]
        let destinationName = object.attributes["destinationname"]
        let sourceEntity = sourceName.flatMap { source.entitiesByName[$0] }
        let generates = object.attributes["autogenerateexpression"].map { $0 != "0" } ?? true
        var attributes: [PropertyMapping] = []
        for property in try store.related(object, "attributemappings") {
            let name = property.attributes["name"] ?? ""
            var expression = try store.expression(of: property)
            if expression == nil, property.generates(default: generates),
                let attribute = sourceEntity?.attributesByName[name], !attribute.isTransient
            {
                expression = .source(name)
            }
            attributes.append(PropertyMapping(name: name, valueExpression: expression))
        }
        var relationships: [PropertyMapping] = []
        for property in try store.related(object, "relationshipmappings") {
            let name = property.attributes["name"] ?? ""
            var expression = try store.expression(of: property)
            let keyPath = Self.relativeKeyPath(property.attributes["sourcekeypath"] ?? name)
            if expression == nil, property.generates(default: generates),
                keyPath.isEmpty || sourceEntity?.relationshipsByName[keyPath] != nil
            {
                let sources: FetchExpression = keyPath.isEmpty ? .variable("source") : .source(keyPath)
                if let mapping = property.attributes["sourcemappingname"] {
                    expression = .destinationInstances(forEntityMappingNamed: mapping, sourceInstances: sources)
                } else {
                    expression = .destinationInstances(forSourceRelationshipNamed: keyPath, sourceInstances: sources)
                }
            }
            relationships.append(PropertyMapping(name: name, valueExpression: expression))
        }
        let typeName = object.attributes["mappingtypename"] ?? "Undefined"
        let code: Int64 = ["Custom": 1, "Add": 2, "Remove": 3, "Copy": 4, "Transform": 5][typeName] ?? 0
        let policy = object.attributes["migrationpolicyclassname"]
        var mapping = EntityMapping(
            name:
                "\(sourceName ?? "")\(sourceName != nil && destinationName != nil ? "To" : "")\(destinationName ?? "")",
            kind: code == 0 && policy != nil && sourceName != nil && destinationName != nil
                ? .custom : kind(code: code, source: sourceName, destination: destinationName),
            sourceEntityName: sourceName, destinationEntityName: destinationName, attributeMappings: attributes,
            relationshipMappings: relationships, migrationPolicyName: policy)
        mapping.sourceEntityVersionHash = sourceEntity?.versionHash
        mapping.destinationEntityVersionHash = destinationName.flatMap { destination.entitiesByName[$0] }?.versionHash
        return mapping
    }

    /// A relationship mapping's source key path relative to the source object: `$source.posts`
    /// and `posts` are `posts`; `$source`, the source object itself, is empty.
    static func relativeKeyPath(_ keyPath: String) -> String {
        if keyPath == "$source" { return "" }
        return keyPath.hasPrefix("$source.") ? String(keyPath.dropFirst("$source.".count)) : keyPath
    }
}

/// The objects of an `xcmapping.xml`, a Core Data XML store: each with its type, attributes
/// (binary ones as base64 text) and the IDs its relationships refer to.
struct XcodeMappingStore {
    struct Object {
        let id: String
        let type: String
        let attributes: [String: String]
        let relationships: [String: [String]]

        /// Whether a property mapping without an expression gets a generated one.
        func generates(default entityDefault: Bool) -> Bool {
            attributes["autogenerateexpression"].map { $0 != "0" } ?? entityDefault
        }
    }

    let file: String
    let objects: [String: Object]
    /// The objects in the file's order.
    let ordered: [Object]

    init(file url: URL) throws(ModelError) {
        file = url.path
        let root = try XcodeModel.readXML(at: url)
        guard root.name == "database" else {
            throw ModelError(
                code: .malformedFile, message: "'\(url.path)' is not a mapping model: its root is <\(root.name)>.",
                filePath: url.path, line: root.line)
        }
        var objects: [String: Object] = [:]
        var ordered: [Object] = []
        for element in root.children where element.name == "object" {
            guard let id = element.attribute("id"), let type = element.attribute("type") else {
                throw ModelError(
                    code: .malformedFile, message: "'\(url.path)', line \(element.line): an object has no id or type.",
                    filePath: url.path, line: element.line)
            }
            var attributes: [String: String] = [:]
            var relationships: [String: [String]] = [:]
            for child in element.children {
                guard let name = child.attribute("name") else { continue }
                if child.name == "attribute" { attributes[name] = child.text }
                if child.name == "relationship" {
                    relationships[name] = (child.attribute("idrefs") ?? "").split(separator: " ").map(String.init)
                }
            }
            let object = Object(id: id, type: type, attributes: attributes, relationships: relationships)
            objects[id] = object
            ordered.append(object)
        }
        self.objects = objects
        self.ordered = ordered
    }

    /// The objects `object`'s relationship `name` refers to, in the file's order.
    func related(_ object: Object, _ name: String) throws(ModelError) -> [Object] {
        var related: [Object] = []
        for id in object.relationships[name] ?? [] {
            guard let target = objects[id] else {
                throw ModelError(
                    code: .malformedFile,
                    message:
                        "'\(file)': object \(object.id)'s '\(name)' refers to \(id), which the file does not hold.",
                    filePath: file)
            }
            related.append(target)
        }
        return related
    }

    /// The archived value expression of the property mapping `object`, if it has one.
    func expression(of object: Object) throws(ModelError) -> FetchExpression? {
        guard let text = object.attributes["valueexpressiondata"] else { return nil }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw ModelError(
                code: .malformedFile,
                message:
                    "'\(file)': the value expression of '\(object.attributes["name"] ?? object.id)' is not base64.",
                filePath: file)
        }
        let archive = try KeyedArchive(data: data, file: "\(file) (\(object.attributes["name"] ?? object.id))")
        return try ArchivedExpression.decode(try archive.topObject())
    }
}
