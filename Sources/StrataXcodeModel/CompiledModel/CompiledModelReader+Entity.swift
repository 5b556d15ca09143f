import Strata

extension CompiledModelReader {
    /// The entity described by the archived `NSEntityDescription` `object`.
    ///
    /// Read: `NSEntityName`; `NSClassNameForEntity` (`EntityDescription/className`);
    /// `NSIsAbstract`; `NSSuperentity` (an entity, whose name becomes the superentity's name);
    /// `NSProperties` (a dictionary of properties by name); `NSUniqueTuples` (an array of arrays
    /// of property names); `NSFetchIndexDescriptions` (an array of `NSFetchIndexDescription`s);
    /// `NSRenamingIdentifier`, `NSVersionHashModifier` and `NSUserInfo`. `NSSubentities` and
    /// `NSManagedObjectModel` only repeat what the model says, and `NSCompoundIndexes` repeats
    /// the fetch indexes.
    ///
    /// A property whose name is also a property of an ancestor is inherited: the model caches
    /// of stores repeat inherited properties in every subentity, and Core Data forbids a
    /// subentity to redeclare one. It is left out, so that the entity lists its own properties.
    mutating func entity(_ object: KeyedArchive.Object) throws(ModelError) -> EntityDescription {
        let name = try requiredString("NSEntityName", of: object, in: "an entity")
        let what = "entity '\(name)'"
        var used: Set<String> = [
            "NSEntityName", "NSClassNameForEntity", "NSIsAbstract", "NSSuperentity", "NSProperties", "NSUniqueTuples",
            "NSFetchIndexDescriptions", "NSRenamingIdentifier", "NSVersionHashModifier", "NSUserInfo",
            "NSSubentities", "NSManagedObjectModel",
        ]
        if object.fields["NSFetchIndexDescriptions"] != nil { used.insert("NSCompoundIndexes") }
        noteUnusedKeys(of: object, used: used)
        var superentityName: String?
        if let superentity = try object.object("NSSuperentity") {
            superentityName = try requiredString("NSEntityName", of: superentity, in: "the superentity of \(what)")
        }
        var entity = EntityDescription(
            name: name, isAbstract: try object.boolean("NSIsAbstract") ?? false, superentityName: superentityName,
            className: try object.string("NSClassNameForEntity"))
        entity.renamingIdentifier = try renamingIdentifier(of: object, name: name)
        entity.versionHashModifier = try object.string("NSVersionHashModifier")
        entity.userInfo = try userInfo(of: object, in: what)
        try readProperties(of: object, into: &entity, in: what)
        entity.uniquenessConstraints = try uniquenessConstraints(of: object, in: what)
        entity.fetchIndexes = try fetchIndexes(of: object, in: what)
        return entity
    }

    /// Reads the own properties of the entity `object` into `entity`, each kind sorted by name.
    private mutating func readProperties(
        of object: KeyedArchive.Object, into entity: inout EntityDescription, in what: String
    ) throws(ModelError) {
        let inherited = try inheritedPropertyNames(of: object)
        for (name, value) in try entries("NSProperties", of: object) ?? [] where !inherited.contains(name) {
            let property = try requiredObject(value, in: object, key: "NSProperties")
            if property.isKind(of: "NSRelationshipDescription") {
                entity.relationships.append(try relationship(property, in: what))
            } else if property.isKind(of: "NSFetchedPropertyDescription") {
                if let fetched = try fetchedProperty(property, in: what) { entity.fetchedProperties.append(fetched) }
            } else if property.isKind(of: "NSAttributeDescription") {
                entity.attributes.append(try attribute(property, in: what))
            } else {
                skipped.skip(
                    "the property '\(name)' of \(what)",
                    because: "Strata has no property like an \(property.className).", at: place(of: property))
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        entity.fetchedProperties.sort { $0.name < $1.name }
    }

    /// The names of the properties of every ancestor of the entity `object`, following
    /// `NSSuperentity` up to the root (and stopping at a cycle, which freezing reports).
    private func inheritedPropertyNames(of object: KeyedArchive.Object) throws(ModelError) -> Set<String> {
        var names: Set<String> = []
        var visited: Set<Int> = [object.index]
        var current = try object.object("NSSuperentity")
        while let ancestor = current, visited.insert(ancestor.index).inserted {
            for (name, _) in try entries("NSProperties", of: ancestor) ?? [] {
                names.insert(name)
            }
            current = try ancestor.object("NSSuperentity")
        }
        return names
    }

    /// The uniqueness constraints of the entity `object` (field `NSUniqueTuples`): an array of
    /// arrays, each holding property names (or properties, whose names are taken).
    private func uniquenessConstraints(of object: KeyedArchive.Object, in what: String) throws(ModelError)
        -> [[String]]
    {
        guard let tuples = try object.array("NSUniqueTuples") else { return [] }
        var constraints: [[String]] = []
        for tuple in tuples {
            guard let list = try archive.object(tuple) else {
                throw malformed(
                    object, "a uniqueness constraint of \(what) is \(tuple.kindDescription), not an array of names")
            }
            var names: [String] = []
            for element in try list.elements() {
                if case .string(let propertyName) = element {
                    names.append(propertyName)
                    continue
                }
                let property = try requiredObject(element, in: list, key: "NS.objects")
                names.append(
                    try requiredString("NSPropertyName", of: property, in: "a uniqueness constraint of \(what)"))
            }
            constraints.append(names)
        }
        return constraints
    }

    /// The fetch indexes of the entity `object` (field `NSFetchIndexDescriptions`), in archived
    /// order; an index Strata cannot represent is skipped and logged.
    private mutating func fetchIndexes(of object: KeyedArchive.Object, in what: String) throws(ModelError)
        -> [FetchIndexDescription]
    {
        guard let descriptions = try object.objects("NSFetchIndexDescriptions") else { return [] }
        var indexes: [FetchIndexDescription] = []
        for description in descriptions {
            if let index = try fetchIndex(description, in: what) { indexes.append(index) }
        }
        return indexes
    }

    /// The fetch index described by the archived `NSFetchIndexDescription` `object`, or nil when
    /// it is skipped.
    ///
    /// Read: `NSIndexName`, `NSPartialIndexPredicate` and `NSIndexElements`, an array of
    /// `NSFetchIndexElementDescription`s with `NSPropertyName`, `NSFetchIndexElementType` (0 for
    /// binary, 1 for R-tree) and `NSAscending`. An index with an element that indexes an
    /// expression (no `NSPropertyName`), or whose partial-index predicate Strata cannot express,
    /// is skipped and logged: an index changes neither the stored data nor the version hash.
    ///
    /// - Throws: `ModelError/Code/malformedFile` for a missing name or an unknown element type.
    private mutating func fetchIndex(_ object: KeyedArchive.Object, in what: String) throws(ModelError)
        -> FetchIndexDescription?
    {
        let name = try requiredString("NSIndexName", of: object, in: "a fetch index of \(what)")
        let index = "the fetch index '\(name)' of \(what)"
        noteUnusedKeys(of: object, used: ["NSIndexName", "NSIndexElements", "NSPartialIndexPredicate", "NSEntity"])
        var elements: [FetchIndexDescription.Element] = []
        for element in try object.objects("NSIndexElements") ?? [] {
            noteUnusedKeys(
                of: element,
                used: ["NSPropertyName", "NSFetchIndexElementType", "NSAscending", "NSFetchIndexDescription"])
            guard let propertyName = try element.string("NSPropertyName") else {
                skipped.skip(
                    index, because: "an element indexes an expression, and Strata indexes only properties.",
                    at: place(of: object))
                return nil
            }
            let kind: FetchIndexDescription.Element.Kind
            switch try element.integer("NSFetchIndexElementType") ?? 0 {
            case 0:
                kind = .binary
            case 1:
                kind = .rTree
            case let other:
                throw malformed(
                    element, "an element of \(index) has the type \(other); expected 0 (binary) or 1 (R-tree)")
            }
            elements.append(
                FetchIndexDescription.Element(
                    propertyName: propertyName, kind: kind, isAscending: try element.boolean("NSAscending") ?? true))
        }
        var description = FetchIndexDescription(name: name, elements: elements)
        switch try archivedPredicate("NSPartialIndexPredicate", of: object) {
        case .absent:
            break
        case .format(let format):
            description.partialIndexPredicate = format
        case .unsupported(let reason):
            skipped.skip(
                index, because: "Strata cannot express its partial-index predicate. \(reason)", at: place(of: object))
            return nil
        }
        return description
    }
}
