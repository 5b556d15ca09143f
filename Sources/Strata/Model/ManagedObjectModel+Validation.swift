import Foundation

extension ManagedObjectModel {
    /// Every problem that would stop the model from being frozen; empty when it is valid
    /// (and, without checking again, once it is frozen).
    public func validationIssues() -> [ModelIssue] {
        let contents = contents()
        return contents.isFrozen ? [] : contents.parts.validationIssues()
    }

    /// Whether `name` is an identifier, as Xcode's model editor asks of entity and property
    /// names: letters, digits, combining marks and `_`, not starting with a digit or mark —
    /// judged scalar by scalar, so that no character joined to a letter (a quote after a
    /// prepended letter, say) slips through. Stores use such names in their own names (SQLite's
    /// `ZNAME` columns, XML's attributes, file names), and key paths can spell them. Every kind of
    /// name that can reach SQL or a file name is held to this one rule.
    package static func isIdentifier(_ name: String) -> Bool {
        PredicateLexer.isIdentifier(name)
    }
}

extension ManagedObjectModel.Parts {
    func validationIssues() -> [ModelIssue] {
        var issues: [ModelIssue] = []
        var byName: [String: EntityDescription] = [:]
        for entity in entities {
            if entity.name.isEmpty {
                issues.append(ModelIssue(.emptyName, entity: nil, "An entity has an empty name."))
            } else if !ManagedObjectModel.isIdentifier(entity.name) {
                issues.append(
                    ModelIssue(
                        .invalidName, entity: entity.name,
                        "Entity name '\(entity.name)' must be made of letters, digits and '_', not starting with a digit."
                    ))
            } else if byName[entity.name] != nil {
                issues.append(
                    ModelIssue(.duplicateEntity, entity: entity.name, "Entity '\(entity.name)' is declared twice."))
            }
            byName[entity.name] = byName[entity.name] ?? entity
        }
        for entity in entities {
            issues += inheritanceIssues(entity, byName)
        }
        for entity in entities {
            let inherited = inheritedPropertyNames(of: entity, byName)
            issues += propertyNameIssues(entity, inherited: inherited)
            issues += attributeIssues(entity)
            issues += relationshipIssues(entity, byName)
            let known = inherited.union(entity.ownPropertyNames)
            issues += constraintShapeIssues(entity)
            issues += constraintIssues(entity, known: known, byName)
            issues += indexIssues(entity, byName)
            issues += searchIndexingIssues(entity)
            for fetched in entity.fetchedProperties where byName[fetched.destinationEntityName] == nil {
                issues.append(
                    ModelIssue(
                        .unknownDestination, entity: entity.name, property: fetched.name,
                        "Fetched property '\(entity.name).\(fetched.name)' fetches unknown entity '\(fetched.destinationEntityName)'."
                    ))
            }
        }
        for (configuration, members) in configurations.sorted(by: { $0.key < $1.key }) {
            if !ManagedObjectModel.isIdentifier(configuration) {
                issues.append(
                    ModelIssue(
                        .invalidName, entity: nil, property: configuration,
                        "Configuration name '\(configuration)' must be made of letters, digits and '_', not starting "
                            + "with a digit."))
            }
            for member in members where byName[member] == nil {
                issues.append(
                    ModelIssue(
                        .unknownConfigurationEntity, entity: member, property: configuration,
                        "Configuration '\(configuration)' names unknown entity '\(member)'."))
            }
        }
        for template in fetchRequestTemplates where byName[template.entityName] == nil {
            issues.append(
                ModelIssue(
                    .unknownTemplateEntity, entity: template.entityName, property: template.name,
                    "Fetch request template '\(template.name)' fetches unknown entity '\(template.entityName)'."))
        }
        issues += predicateIssues()
        return issues
    }

    private func inheritanceIssues(_ entity: EntityDescription, _ byName: [String: EntityDescription]) -> [ModelIssue] {
        guard let parent = entity.superentityName else { return [] }
        guard byName[parent] != nil else {
            return [
                ModelIssue(
                    .unknownSuperentity, entity: entity.name,
                    "Entity '\(entity.name)' inherits from unknown entity '\(parent)'.")
            ]
        }
        var seen: Set<String> = [entity.name]
        var current: String? = parent
        while let name = current {
            if seen.contains(name) {
                return [
                    ModelIssue(
                        .inheritanceCycle, entity: entity.name,
                        "Entity '\(entity.name)' is its own ancestor (through '\(name)').")
                ]
            }
            seen.insert(name)
            current = byName[name]?.superentityName
        }
        return []
    }

    private func lineage(of entity: EntityDescription, _ byName: [String: EntityDescription]) -> [EntityDescription] {
        EntityLineage(entitiesByName: byName).lineage(of: entity)
    }

    /// The property names an entity inherits from its ancestors.
    private func inheritedPropertyNames(of entity: EntityDescription, _ byName: [String: EntityDescription])
        -> Set<String>
    {
        Set(lineage(of: entity, byName).dropFirst().flatMap(\.ownPropertyNames))
    }

    private func propertyNameIssues(_ entity: EntityDescription, inherited: Set<String>) -> [ModelIssue] {
        var issues: [ModelIssue] = []
        var seen: Set<String> = []
        for name in entity.ownPropertyNames {
            if name.isEmpty {
                issues.append(
                    ModelIssue(
                        .emptyName, entity: entity.name, "Entity '\(entity.name)' has a property with an empty name."))
            } else if seen.contains(name) {
                issues.append(
                    ModelIssue(
                        .duplicateProperty, entity: entity.name, property: name,
                        "Entity '\(entity.name)' declares property '\(name)' twice."))
            } else if inherited.contains(name) {
                issues.append(
                    ModelIssue(
                        .shadowedProperty, entity: entity.name, property: name,
                        "Property '\(entity.name).\(name)' shadows an inherited property of the same name."))
            } else if !ManagedObjectModel.isIdentifier(name) {
                issues.append(
                    ModelIssue(
                        .invalidName, entity: entity.name, property: name,
                        "Property name '\(entity.name).\(name)' must be made of letters, digits and '_', not starting "
                            + "with a digit."))
            }
            seen.insert(name)
        }
        return issues
    }

    private func attributeIssues(_ entity: EntityDescription) -> [ModelIssue] {
        var issues: [ModelIssue] = []
        for composite in entity.attributes where composite.type == .composite {
            issues += compositeIssues(composite, path: composite.name, in: entity)
        }
        for attribute in entity.attributes.flatMap(\.leafAttributes) {
            let key = "\(entity.name).\(attribute.name)"
            func issue(_ kind: ModelIssue.Kind, _ message: String) {
                issues.append(ModelIssue(kind, entity: entity.name, property: attribute.name, message))
            }
            if !attribute.defaultValue.isNull, !attribute.type.accepts(attribute.defaultValue) {
                issue(.defaultValueType, "Default value of '\(key)' is not a \(attribute.type.modelFileName) value.")
            }
            for bound in [attribute.minValue, attribute.maxValue].compactMap({ $0 })
            where !(attribute.type.isNumeric || attribute.type == .date) || !attribute.type.accepts(bound) {
                issue(
                    .invalidBounds, "Value bound of '\(key)' does not fit a \(attribute.type.modelFileName) attribute.")
            }
            if let low = attribute.minValue, let high = attribute.maxValue,
                let order = low.compare(high, options: []), order == .orderedDescending
            {
                issue(.invalidBounds, "Minimum value of '\(key)' is larger than its maximum.")
            }
            if attribute.minLength != nil || attribute.maxLength != nil {
                if attribute.type != .string && attribute.type != .binary {
                    issue(.invalidBounds, "Length bounds of '\(key)' apply only to String and Binary attributes.")
                } else if [attribute.minLength, attribute.maxLength].contains(where: { ($0 ?? 0) < 0 }) {
                    issue(.invalidBounds, "Length bounds of '\(key)' may not be negative.")
                } else if let low = attribute.minLength, let high = attribute.maxLength, low > high {
                    issue(.invalidBounds, "Length bounds of '\(key)' are out of order (\(low) > \(high)).")
                }
            }
            if let pattern = attribute.regularExpression {
                if attribute.type != .string {
                    issue(
                        .invalidRegularExpression, "Regular expression on '\(key)' applies only to String attributes.")
                } else if (try? NSRegularExpression(pattern: pattern)) == nil {
                    issue(.invalidRegularExpression, "Regular expression '\(pattern)' of '\(key)' does not compile.")
                }
            }
            if attribute.type == .transformable, attribute.valueTransformerName?.isEmpty ?? true {
                issue(.missingTransformer, "Transformable attribute '\(key)' names no value transformer.")
            }
            if let derivation = attribute.derivationExpression {
                if let problem = derivationProblem(derivation, of: entity) {
                    issue(.invalidDerivation, "Derived attribute '\(key)': \(problem).")
                }
            }
        }
        return issues
    }

    /// What Core Data would refuse in the composite attribute at `path` (`address`,
    /// `address.geo`) and its elements, nested composites included.
    private func compositeIssues(_ composite: AttributeDescription, path: String, in entity: EntityDescription)
        -> [ModelIssue]
    {
        var issues: [ModelIssue] = []
        func issue(_ message: String) {
            issues.append(ModelIssue(.invalidComposite, entity: entity.name, property: path, message))
        }
        let key = "\(entity.name).\(path)"
        if composite.isTransient || composite.derivationExpression != nil || !composite.defaultValue.isNull
            || composite.minValue != nil || composite.maxValue != nil || composite.minLength != nil
            || composite.maxLength != nil || composite.regularExpression != nil || composite.isIndexed
        {
            issue(
                "Composite attribute '\(key)' may not be transient, derived, indexed, or have a default value, "
                    + "bounds or a pattern; give them to its elements.")
        }
        var seen: Set<String> = []
        for element in composite.elements {
            let elementKey = "\(key).\(element.name)"
            if !ManagedObjectModel.isIdentifier(element.name) {
                issue(
                    "Composite attribute '\(key)' has an element named '\(element.name)'; element names must be made of "
                        + "letters, digits and '_', not starting with a digit.")
            } else if !seen.insert(element.name).inserted {
                issue("Composite attribute '\(key)' declares element '\(element.name)' twice.")
            }
            if element.type == .composite {
                issues += compositeIssues(element, path: path + "." + element.name, in: entity)
            } else if element.type == .undefined || element.type == .objectID || element.isTransient
                || element.derivationExpression != nil || element.allowsExternalBinaryDataStorage
            {
                issue(
                    "Element '\(elementKey)' is transient, derived, kept outside the store or of type "
                        + "\(element.type.modelFileName); a composite holds only stored values.")
            }
        }
        return issues
    }

    /// Why the derivation `text` of an attribute of `entity` cannot be computed, or `nil`.
    /// What Core Data would refuse in how `entity` is indexed for search: a display-name
    /// expression that does not parse or reads a property the entity lacks.
    private func searchIndexingIssues(_ entity: EntityDescription) -> [ModelIssue] {
        guard let expression = entity.searchDisplayNameExpression,
            let problem = derivationProblem(expression, of: entity)
        else { return [] }
        return [
            ModelIssue(
                .invalidSearchIndexing, entity: entity.name, "The search display name of '\(entity.name)': \(problem).")
        ]
    }

    private func derivationProblem(_ text: String, of entity: EntityDescription) -> String? {
        let expression: FetchExpression
        do {
            expression = try FetchExpression(format: text)
        } catch {
            return "the expression '\(text)' does not parse: \(error.message)"
        }
        let lineage = EntityLineage(entities).lineage(of: entity)
        let names = Set(lineage.flatMap(\.ownPropertyNames))
        for path in expression.keyPaths {
            let first = path.split(separator: ".").first.map(String.init) ?? path
            if !names.contains(first) { return "'\(text)' reads '\(first)', which '\(entity.name)' does not have" }
        }
        return nil
    }

    private func relationshipIssues(_ entity: EntityDescription, _ byName: [String: EntityDescription])
        -> [ModelIssue]
    {
        var issues: [ModelIssue] = []
        for relationship in entity.relationships {
            let key = "\(entity.name).\(relationship.name)"
            func issue(_ kind: ModelIssue.Kind, _ message: String) {
                issues.append(ModelIssue(kind, entity: entity.name, property: relationship.name, message))
            }
            if relationship.isOrdered && !relationship.isToMany {
                issue(
                    .orderedToOne,
                    "Relationship '\(key)' is ordered but to-one; only to-many relationships are ordered.")
            }
            if relationship.minCount < 0 || (relationship.maxCount > 0 && relationship.minCount > relationship.maxCount)
                || (!relationship.isToMany && relationship.maxCount != 1)
            {
                issue(
                    .invalidCount,
                    "Relationship '\(key)' has invalid counts (min \(relationship.minCount), max \(relationship.maxCount))."
                )
            }
            guard let destination = byName[relationship.destinationEntityName] else {
                issue(
                    .unknownDestination,
                    "Relationship '\(key)' points at unknown entity '\(relationship.destinationEntityName)'.")
                continue
            }
            guard let inverseName = relationship.inverseName else { continue }
            guard let inverse = lineageRelationship(named: inverseName, from: destination, byName) else {
                issue(
                    .unknownInverse,
                    "Inverse '\(inverseName)' of '\(key)' is not a relationship of '\(destination.name)'.")
                continue
            }
            let pointsBack = byName[inverse.destinationEntityName].map { isKind(entity, of: $0.name, byName) } ?? false
            if inverse.inverseName != relationship.name || !pointsBack {
                issue(
                    .inverseMismatch,
                    "Inverse '\(destination.name).\(inverseName)' of '\(key)' does not point back at '\(key)'.")
            }
        }
        return issues
    }

    private func lineageRelationship(
        named name: String, from entity: EntityDescription, _ byName: [String: EntityDescription]
    ) -> RelationshipDescription? {
        lineage(of: entity, byName).lazy.compactMap { $0.relationship(named: name) }.first
    }

    private func isKind(_ entity: EntityDescription, of name: String, _ byName: [String: EntityDescription]) -> Bool {
        lineage(of: entity, byName).contains { $0.name == name }
    }

    /// The uniqueness constraints of `entity` that name no property, or repeat another.
    private func constraintShapeIssues(_ entity: EntityDescription) -> [ModelIssue] {
        var seen: Set<[String]> = []
        return entity.uniquenessConstraints.compactMap { constraint -> ModelIssue? in
            if constraint.isEmpty {
                return ModelIssue(
                    .invalidConstraintProperty, entity: entity.name,
                    "Entity '\(entity.name)' has a uniqueness constraint naming no property.")
            }
            guard seen.insert(constraint).inserted else {
                return ModelIssue(
                    .invalidConstraintProperty, entity: entity.name, property: constraint.joined(separator: ","),
                    "Entity '\(entity.name)' declares the uniqueness constraint '\(constraint.joined(separator: ","))' "
                        + "twice.")
            }
            return nil
        }
    }

    private func constraintIssues(
        _ entity: EntityDescription, known: Set<String>, _ byName: [String: EntityDescription]
    ) -> [ModelIssue] {
        entity.uniquenessConstraints.flatMap { $0 }.compactMap { name in
            guard known.contains(name) else {
                return ModelIssue(
                    .unknownConstraintProperty, entity: entity.name, property: name,
                    "Uniqueness constraint of '\(entity.name)' names unknown property '\(name)'.")
            }
            let attribute = lineageAttribute(named: name, from: entity, byName)
            let relationship = lineageRelationship(named: name, from: entity, byName)
            let kind: String? =
                if let attribute, attribute.isTransient {
                    "transient attribute"
                } else if let relationship, relationship.isToMany {
                    "to-many relationship"
                } else if let relationship, relationship.isTransient {
                    "transient relationship"
                } else if let attribute, attribute.type == .composite {
                    "composite attribute (name its elements instead)"
                } else if let attribute, attribute.storesExternally {
                    "attribute kept as external binary data"
                } else if attribute == nil && relationship == nil { "fetched property" } else { nil }
            guard let kind else { return nil }
            return ModelIssue(
                .invalidConstraintProperty, entity: entity.name, property: name,
                "Uniqueness constraint of '\(entity.name)' names \(kind) '\(name)'; only stored attributes and "
                    + "to-one relationships can be unique.")
        }
    }

    private func indexIssues(_ entity: EntityDescription, _ byName: [String: EntityDescription]) -> [ModelIssue] {
        var issues: [ModelIssue] = []
        var names: Set<String> = []
        for index in entity.fetchIndexes {
            func issue(_ kind: ModelIssue.Kind, _ message: String) {
                issues.append(ModelIssue(kind, entity: entity.name, property: index.name, message))
            }
            if !ManagedObjectModel.isIdentifier(index.name) {
                issue(
                    .invalidName,
                    "Index name '\(entity.name).\(index.name)' must be made of letters, digits and '_', not starting "
                        + "with a digit.")
            } else if !names.insert(index.name).inserted {
                issue(.duplicateIndex, "Entity '\(entity.name)' declares index '\(index.name)' twice.")
            }
            if index.elements.isEmpty {
                issue(.emptyIndex, "Index '\(entity.name).\(index.name)' has no elements.")
            }
            if Set(index.elements.map(\.kind)).count > 1 {
                issue(.mixedIndexKinds, "Index '\(entity.name).\(index.name)' mixes binary and R-tree elements.")
            }
            for element in index.elements {
                let attribute = lineageAttribute(named: element.propertyName, from: entity, byName)
                let relationship = lineageRelationship(named: element.propertyName, from: entity, byName)
                if attribute == nil && (relationship == nil || relationship!.isToMany) {
                    issue(
                        .unknownIndexProperty,
                        "Index '\(entity.name).\(index.name)' names '\(element.propertyName)', which is not an attribute or to-one relationship of '\(entity.name)'."
                    )
                } else if element.kind == .rTree,
                    attribute == nil || !attribute!.type.isNumeric || attribute!.isOptional
                {
                    issue(
                        .invalidRTreeElement,
                        "R-tree index '\(entity.name).\(index.name)' needs a non-optional numeric attribute; '\(element.propertyName)' is not one."
                    )
                }
            }
        }
        return issues
    }

    private func lineageAttribute(
        named name: String, from entity: EntityDescription, _ byName: [String: EntityDescription]
    ) -> AttributeDescription? {
        lineage(of: entity, byName).lazy.compactMap { $0.attribute(named: name) }.first
    }
}
