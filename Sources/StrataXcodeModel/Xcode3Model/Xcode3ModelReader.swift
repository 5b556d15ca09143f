import Foundation
import Strata

/// Reads a model Xcode 3 saved: the binary `elements` file of an `.xcdatamodel` folder, a
/// keyed archive of Xcode's own design classes (`XDPMModel`, `XDPMEntity`, `XDPMAttribute`,
/// `XDPMRelationship`), each keeping its Core Data settings as tagged values of "stereotypes"
/// (`XD_PAttK_attributeType`, `XD_PPSK_isOptional`, `XD_PRK_destination`, …).
///
/// Entities, attributes (type, optionality, transience, default value, bounds, value
/// transformer, indexing, user info) and relationships (destination, inverse, counts, delete
/// rule) are read. Inheritance, fetch request templates, fetched properties and
/// configurations are not: a model that has any is `ModelError.Code.unsupportedFormat`, so
/// that nothing is silently left out.
struct Xcode3ModelReader {
    let archive: KeyedArchive
    let file: String

    init(contentsOf url: URL) throws(ModelError) {
        file = url.path
        archive = try KeyedArchive(data: try ModelFileContents.read(url), file: file)
    }

    /// The model the archive holds.
    func model() throws(ModelError) -> ManagedObjectModel {
        let root = try archive.topObject()
        guard root.isKind(of: "XDPMModel") else {
            throw malformed("the archive's root is a \(root.className), not an Xcode 3 model (XDPMModel)")
        }
        if let configurations = try root.dictionary("_configurationsByName"), !configurations.isEmpty {
            throw unsupported("configurations (\(configurations.keys.sorted().joined(separator: ", ")))")
        }
        guard let package = try root.object("_xd_rootPackage") else {
            throw malformed("the model has no package of entities ('_xd_rootPackage')")
        }
        var entities: [EntityDescription] = []
        for (name, value) in try package.dictionary("XDBucketForClassesstorage") ?? [:] {
            guard let object = try archive.object(value), object.isKind(of: "XDPMEntity") else {
                throw malformed("'\(name)' is not an entity (XDPMEntity)")
            }
            entities.append(try entity(object))
        }
        let identifier = try root.string("_modelVersionIdentifier")
        return ManagedObjectModel(
            entities: entities.sorted { $0.name < $1.name }, versionIdentifiers: identifier.map { [$0] } ?? [])
    }

    private func entity(_ object: KeyedArchive.Object) throws(ModelError) -> EntityDescription {
        let name = try required(object.string("_name"), "a name", of: object)
        let settings = try stereotypes(of: object)["XD_PStereotype"] ?? [:]
        if let parents = try object.array("XDBucketForGeneralizationsstorage"), !parents.isEmpty {
            throw unsupported("entity inheritance ('\(name)' has a parent entity)")
        }
        if case .array(let requests)? = settings["XD_PSK_fetchRequestsArray"], !requests.isEmpty {
            throw unsupported("fetch request templates ('\(name)' has \(requests.count))")
        }
        var entity = EntityDescription(name: name)
        let abstract = try object.boolean("_isAbstract")
        entity.isAbstract = settings["XD_PSK_isAbstract"]?.flag ?? abstract ?? false
        if let className = settings["XD_PSK_entityClassName"]?.string, className != "NSManagedObject" {
            entity.className = className
        }
        entity.userInfo = try userInfo(settings["XD_PSK_userInfo"])
        for (propertyName, value) in try object.dictionary("XDBucketForOwnedAttributesstorage") ?? [:] {
            guard let property = try archive.object(value) else {
                throw malformed("property '\(propertyName)' of '\(name)' is not an archived object")
            }
            if property.isKind(of: "XDPMAttribute") {
                entity.attributes.append(try attribute(property, named: propertyName, of: name))
            } else if property.isKind(of: "XDPMRelationship") {
                entity.relationships.append(try relationship(property, named: propertyName, of: name))
            } else {
                throw unsupported("'\(name).\(propertyName)', a \(property.className)")
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        return entity
    }

    private func attribute(_ object: KeyedArchive.Object, named name: String, of entity: String) throws(ModelError)
        -> AttributeDescription
    {
        let all = try stereotypes(of: object)
        let settings = all["XD_PAtt_Stereotype"] ?? [:]
        let property = all["XD_PPropStereotype"] ?? [:]
        let what = "attribute '\(entity).\(name)'"
        guard let code = settings["XD_PAttK_attributeType"]?.integer, let rawValue = UInt32(exactly: code),
            let type = AttributeType(rawValue: rawValue)
        else {
            throw malformed("\(what) has no attribute type Strata knows ('XD_PAttK_attributeType')")
        }
        var attribute = AttributeDescription(
            name: name, type: type, isOptional: property["XD_PPSK_isOptional"]?.flag ?? true)
        attribute.isTransient = property["XD_PPSK_isTransient"]?.flag ?? false
        attribute.isIndexed = property["XD_PPSK_isIndexed"]?.flag ?? false
        attribute.isIndexedForSearch = property["XD_PPSK_isSpotlightIndexed"]?.flag ?? false
        attribute.userInfo = try userInfo(property["XD_PPSK_userInfo"])
        attribute.valueTransformerName = settings["XD_PAttK_valueTransformerName"]?.string
        if let text = settings["XD_PAttK_defaultValueAsString"]?.string {
            attribute.defaultValue = try value(text, as: type, for: "default value", of: what)
        }
        if let text = settings["XD_PAttK_minValueString"]?.string {
            attribute.minValue = try value(text, as: type.isNumeric ? type : .integer64, for: "minimum", of: what)
        }
        if let text = settings["XD_PAttK_maxValueString"]?.string {
            attribute.maxValue = try value(text, as: type.isNumeric ? type : .integer64, for: "maximum", of: what)
        }
        attribute.regularExpression = settings["XD_PAttK_regularExpressionString"]?.string
        return attribute
    }

    private func relationship(_ object: KeyedArchive.Object, named name: String, of entity: String) throws(ModelError)
        -> RelationshipDescription
    {
        let all = try stereotypes(of: object)
        let settings = all["XD_PR_Stereotype"] ?? [:]
        let property = all["XD_PPropStereotype"] ?? [:]
        let what = "relationship '\(entity).\(name)'"
        guard let destination = try archive.object(settings["XD_PRK_destination"] ?? .null)?.string("_name") else {
            throw malformed("\(what) has no destination entity ('XD_PRK_destination')")
        }
        let inverse = try archive.object(settings["XD_PRK_inverseRelationship"] ?? .null)?.string("_name")
        let isToMany = settings["XD_PRK_isToMany"]?.flag ?? false
        let code = settings["XD_PRK_deleteRule"]?.integer ?? 1
        guard let deleteRule = RelationshipDescription.DeleteRule(coreDataCode: code) else {
            throw malformed("\(what) has the delete rule code \(code), which Strata does not know")
        }
        var relationship = RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, isToMany: isToMany,
            isOrdered: false, minCount: Int(settings["XD_PRK_minCount"]?.integer ?? 0),
            maxCount: Int(settings["XD_PRK_maxCount"]?.integer ?? (isToMany ? 0 : 1)), deleteRule: deleteRule,
            isOptional: property["XD_PPSK_isOptional"]?.flag ?? true,
            isTransient: property["XD_PPSK_isTransient"]?.flag ?? false)
        relationship.userInfo = try userInfo(property["XD_PPSK_userInfo"])
        return relationship
    }

    /// The tagged values the reader knows, by stereotype; `XD_PPSK_isSpotlightIndexed` (read as
    /// `isIndexedForSearch`), `XD_PPSK_isStoredInTruthFile` and `XD_PSK_classMapping` change
    /// neither the stored data nor the version hashes.
    private static let knownTaggedValues: [String: Set<String>] = [
        "XD_PStereotype": [
            "XD_PSK_entityClassName", "XD_PSK_classMapping", "XD_PSK_isAbstract", "XD_PSK_fetchRequestsArray",
            "XD_PSK_userInfo",
        ],
        "XD_PAtt_Stereotype": [
            "XD_PAttK_attributeType", "XD_PAttK_defaultValueAsString", "XD_PAttK_minValueString",
            "XD_PAttK_maxValueString", "XD_PAttK_valueTransformerName", "XD_PAttK_regularExpressionString",
        ],
        "XD_PPropStereotype": [
            "XD_PPSK_isOptional", "XD_PPSK_isTransient", "XD_PPSK_userInfo", "XD_PPSK_isIndexed",
            "XD_PPSK_isSpotlightIndexed", "XD_PPSK_isStoredInTruthFile",
        ],
        "XD_PR_Stereotype": [
            "XD_PRK_deleteRule", "XD_PRK_destination", "XD_PRK_maxCount", "XD_PRK_minCount",
            "XD_PRK_inverseRelationship", "XD_PRK_isToMany",
        ],
    ]

    /// Each stereotype of `object` by name, with its tagged values by name.
    ///
    /// - Throws: `ModelError.Code.unsupportedFormat` for a stereotype or tagged value the
    ///   reader does not know, such as a renaming identifier, that holds something: leaving it
    ///   out could change what a migration infers.
    private func stereotypes(of object: KeyedArchive.Object) throws(ModelError) -> [String: [String: PropertyListValue]]
    {
        var stereotypes: [String: [String: PropertyListValue]] = [:]
        for (name, value) in try object.dictionary("XDBucketForStereotypesstorage") ?? [:] {
            guard let stereotype = try archive.object(value) else { continue }
            var values: [String: PropertyListValue] = [:]
            for (key, tagged) in try stereotype.dictionary("XDBucketForOwnedAttributesstorage") ?? [:] {
                guard let property = try archive.object(tagged) else { continue }
                let value = try property.plainValue("_default") ?? .null
                guard Self.knownTaggedValues[name]?.contains(key) == true || value.isEmpty else {
                    throw unsupported("the setting '\(key)' (\(name)) of object \(object.index)")
                }
                values[key] = value
            }
            stereotypes[name] = values
        }
        return stereotypes
    }

    /// A user info dictionary: an archived dictionary of strings.
    private func userInfo(_ value: PropertyListValue?) throws(ModelError) -> [String: String] {
        guard let value, let dictionary = try archive.object(value) else { return [:] }
        var info: [String: String] = [:]
        for (key, entry) in try dictionary.entries() {
            guard case .string(let text) = entry else { throw malformed("user info '\(key)' is not a string") }
            info[key] = text
        }
        return info
    }

    private func value(_ text: String, as type: AttributeType, for role: String, of what: String) throws(ModelError)
        -> AttributeValue
    {
        guard let value = AttributeValue(modelText: text, as: type) else {
            throw malformed("\(what) has the \(role) '\(text)', which is not a valid \(type.modelFileName) value")
        }
        return value
    }

    private func required<T>(_ value: T?, _ what: String, of object: KeyedArchive.Object) throws(ModelError) -> T {
        guard let value else { throw malformed("object \(object.index) (\(object.className)) has no \(what)") }
        return value
    }

    private func malformed(_ reason: String) -> ModelError {
        ModelError(
            code: .malformedFile, message: "'\(file)' is not a readable Xcode 3 model: \(reason).", filePath: file)
    }

    private func unsupported(_ what: String) -> ModelError {
        ModelError(
            code: .unsupportedFormat,
            message: "'\(file)' is an Xcode 3 model with \(what), which Strata does not read from that format. Open "
                + "the model in a recent Xcode and save it: Xcode then writes the XML 'contents' file.",
            filePath: file)
    }
}

extension PropertyListValue {
    /// Whether the value says nothing: null, false, zero or an empty string.
    fileprivate var isEmpty: Bool {
        switch self {
        case .null, .boolean(false), .integer(0): true
        case .string(let text): text.isEmpty
        default: false
        }
    }

    /// The flag this value holds: a Boolean, or the integer 0 or 1.
    fileprivate var flag: Bool? {
        switch self {
        case .boolean(let flag): flag
        case .integer(0): false
        case .integer(1): true
        default: nil
        }
    }
}
