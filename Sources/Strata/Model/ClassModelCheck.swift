/// Compares what a class declares with the entity it stands for.
struct ClassModelCheck {
    /// The model's entities by name.
    let entities: [String: EntityDescription]

    init(entities: [EntityDescription]) {
        self.entities = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every way `declaration` disagrees with its entity; with `inheritance`, a superclass unlike
    /// the superentity too.
    func mismatches(of declaration: ClassDeclaration, entity name: String? = nil, inheritance: Bool = true)
        -> [ModelIssue]
    {
        let type = declaration.type
        let name = name ?? type.entityName
        guard let entity = entities[name] else {
            return [
                ModelIssue(
                    .classMismatch, entity: name,
                    "Class \(type) stands for entity '\(name)', which the model lacks; override entityName to name "
                        + "its entity.")
            ]
        }
        var issues: [ModelIssue] = []
        if inheritance, entity.superentityName != declaration.superclass?.entityName {
            issues.append(
                ModelIssue(
                    .classMismatch, entity: name,
                    "Class \(type) inherits from \(declaration.superclass.map { "\($0)" } ?? "ManagedObject") but "
                        + "entity '\(name)' \(entity.superentityName.map { "inherits from '\($0)'" } ?? "has no superentity")."
                ))
        }
        for property in declaration.properties {
            if let problem = mismatch(of: property, in: entity, class: type) {
                issues.append(ModelIssue(.classMismatch, entity: name, property: property.name, problem))
            }
        }
        return issues
    }

    /// How `property` disagrees with the entity's property of its name, if it does.
    private func mismatch(
        of property: ClassDeclaration.Property, in entity: EntityDescription, class type: ManagedObject.Type
    ) -> String? {
        let place = "\(type).\(property.name)"
        let modelled = "entity '\(entity.name)'"
        switch property.declaration.kind {
        case .attribute(let declared):
            guard let attribute = lineage(of: entity).lazy.compactMap({ $0.attribute(named: property.name) }).first
            else { return "\(place) is an attribute, which \(modelled) lacks." }
            if !Self.type(declared.type, reads: attribute.type) {
                return "\(place) is a \(declared.valueType), which cannot hold the \(attribute.type.modelFileName) "
                    + "values of \(modelled)'s attribute."
            }
            return nil
        case .relationship(let declared):
            guard
                let relationship = lineage(of: entity).lazy.compactMap({ $0.relationship(named: property.name) }).first
            else { return "\(place) is a relationship, which \(modelled) lacks." }
            if declared.isToMany != relationship.isToMany || declared.isOrdered != relationship.isOrdered {
                return
                    "\(place) is \(Self.shape(declared.isToMany, declared.isOrdered)) but \(modelled)'s relationship "
                    + "is \(Self.shape(relationship.isToMany, relationship.isOrdered))."
            }
            let destination = declared.destination.entityName
            let destinations = entities[relationship.destinationEntityName].map(lineage).map { $0.map(\.name) } ?? []
            if !destinations.contains(destination) {
                return "\(place) holds \(declared.destination) objects (entity '\(destination)'), but \(modelled)'s "
                    + "relationship holds '\(relationship.destinationEntityName)' objects."
            }
            return nil
        }
    }

    /// `entity` and its ancestors, nearest first.
    private func lineage(of entity: EntityDescription) -> [EntityDescription] {
        var lineage = [entity]
        while let parent = lineage.last?.superentityName, let next = entities[parent],
            !lineage.contains(where: { $0.name == parent })
        {
            lineage.append(next)
        }
        return lineage
    }

    /// Whether a Swift type standing for `declared` holds every value of a `modelled` attribute.
    static func type(_ declared: AttributeType, reads modelled: AttributeType) -> Bool {
        switch (declared, modelled) {
        case (.undefined, _), (.integer64, .integer16), (.integer64, .integer32), (.integer32, .integer16),
            (.double, .float), (.binary, .transformable):
            true
        default: declared == modelled
        }
    }

    private static func shape(_ toMany: Bool, _ ordered: Bool) -> String {
        toMany ? (ordered ? "ordered to-many" : "to-many") : "to-one"
    }
}
