import Strata

extension CompiledModelReader {
    /// The fields of an archived `NSFetchRequest` that fetch request templates and fetched
    /// properties read, or that only repeat defaults: `NSEntity` (an entity, or its name),
    /// `NSPredicate`, and the flags every request archives.
    static let fetchRequestKeys: Set<String> = [
        "NSEntity", "NSPredicate", "NSHasFetchRequestFlags", "NSFetchRequestFlags", "NSAllocationType",
    ]

    /// The model the archive stands for: its root object, an `NSManagedObjectModel`.
    ///
    /// Read from the root: `NSEntities` (a dictionary of entities by name; see
    /// ``entity(_:)``), `NSConfigurations` (or `_NSConfigurations`: a dictionary of sets of
    /// entities by configuration name), `NSFetchRequestTemplates` (a dictionary of
    /// `NSFetchRequest`s by name) and `NSVersionIdentifiers` (a set of strings). Entities,
    /// configuration members, templates and version identifiers come out sorted by name.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when the root is not an `NSManagedObjectModel`
    ///   or a part of the model is malformed; `ModelError/Code/unsupportedFormat` for what Strata
    ///   cannot represent without changing the version hashes.
    mutating func model() throws(ModelError) -> ManagedObjectModel {
        let root = try archive.topObject()
        guard root.isKind(of: "NSManagedObjectModel") else {
            throw ModelError(
                code: .malformedFile,
                message: "'\(file)': the archive holds an object of class \(root.className), not an "
                    + "NSManagedObjectModel, so it is not a compiled model.",
                filePath: file)
        }
        noteUnusedKeys(
            of: root,
            used: [
                "NSEntities", "NSConfigurations", "_NSConfigurations", "NSFetchRequestTemplates",
                "NSVersionIdentifiers",
            ])
        var entities: [EntityDescription] = []
        for (_, value) in try entries("NSEntities", of: root) ?? [] {
            entities.append(try entity(try requiredObject(value, in: root, key: "NSEntities")))
        }
        entities.sort { $0.name < $1.name }
        let members = try self.configurations(of: root)
        let templates = try self.fetchRequestTemplates(of: root)
        let identifiers = try self.versionIdentifiers(of: root)
        return ManagedObjectModel(
            entities: entities, configurations: members, fetchRequestTemplates: templates,
            versionIdentifiers: identifiers)
    }

    /// The configurations of the model `root`: for each name, the sorted names of its member
    /// entities (archived as entities, or as their names). Core Data's name for the default
    /// configuration, `PF_DEFAULT_CONFIGURATION_NAME`, is left out, as Core Data's encoder does.
    private func configurations(of root: KeyedArchive.Object) throws(ModelError) -> [String: [String]] {
        let key = root.fields["NSConfigurations"] != nil ? "NSConfigurations" : "_NSConfigurations"
        var result: [String: [String]] = [:]
        for (name, value) in try entries(key, of: root) ?? [] where name != "PF_DEFAULT_CONFIGURATION_NAME" {
            guard let members = try archive.object(value) else {
                throw malformed(root, "configuration '\(name)' is \(value.kindDescription), not a set of entities")
            }
            var names: [String] = []
            for element in try members.elements() {
                if case .string(let entityName) = element {
                    names.append(entityName)
                    continue
                }
                let member = try requiredObject(element, in: members, key: "NS.objects")
                names.append(try requiredString("NSEntityName", of: member, in: "a member of configuration '\(name)'"))
            }
            result[name] = names.sorted()
        }
        return result
    }

    /// The fetch request templates of the model `root`, sorted by name. A template whose
    /// predicate Strata cannot express is skipped and logged; fetch options (sort descriptors,
    /// limits, result types, …) are not part of a `FetchRequestTemplate` and are logged as
    /// ignored.
    private mutating func fetchRequestTemplates(of root: KeyedArchive.Object) throws(ModelError)
        -> [FetchRequestTemplate]
    {
        var templates: [FetchRequestTemplate] = []
        for (name, value) in try entries("NSFetchRequestTemplates", of: root) ?? [] {
            let request = try requiredObject(value, in: root, key: "NSFetchRequestTemplates")
            let what = "the fetch request template '\(name)'"
            noteUnusedKeys(of: request, used: Self.fetchRequestKeys)
            var template = FetchRequestTemplate(name: name, entityName: try fetchEntityName(of: request, in: what))
            switch try archivedPredicate("NSPredicate", of: request) {
            case .absent:
                break
            case .format(let format):
                template.predicateFormat = format
            case .unsupported(let reason):
                skipped.skip(what, because: "Strata cannot express its predicate. \(reason)", at: place(of: request))
                continue
            }
            templates.append(template)
        }
        return templates
    }

    /// The name of the entity the archived `NSFetchRequest` `request` fetches: its field
    /// `NSEntity` holds the entity, or the entity's name.
    ///
    /// - Throws: `ModelError/Code/malformedFile`, naming `what`, when the request names no entity.
    func fetchEntityName(of request: KeyedArchive.Object, in what: String) throws(ModelError) -> String {
        guard let field = request.fields["NSEntity"] else {
            throw malformed(request, "\(what) names no entity ('NSEntity')")
        }
        if let entity = try archive.object(field), entity.isKind(of: "NSEntityDescription") {
            return try requiredString("NSEntityName", of: entity, in: "the entity of \(what)")
        }
        guard let name = try request.string("NSEntity") else {
            throw malformed(request, "\(what) names no entity ('NSEntity')")
        }
        return name
    }

    /// The version identifiers of the model `root` (field `NSVersionIdentifiers`, a set of
    /// strings), sorted.
    private func versionIdentifiers(of root: KeyedArchive.Object) throws(ModelError) -> [String] {
        guard let elements = try root.array("NSVersionIdentifiers") else { return [] }
        var identifiers: [String] = []
        for element in elements {
            guard case .string(let identifier) = element else {
                throw malformed(root, "a version identifier is \(element.kindDescription), not a string")
            }
            identifiers.append(identifier)
        }
        return identifiers.sorted()
    }
}
