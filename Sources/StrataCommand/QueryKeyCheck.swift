import Strata

/// Checks the names a query uses against the model before it runs, so that a misspelt entity or
/// key fails naming the closest ones instead of matching nothing.
struct QueryKeyCheck {
    let schema: ModelSchema

    /// The entity `name`, or an error naming the closest entities.
    func entity(named name: String) throws -> EntitySchema {
        if let entity = schema.entitiesByName[name] { return entity }
        let names = ClosestNames(candidates: schema.entities.map(\.name))
        throw CommandFailure(
            description: "The model has no entity '\(name)': \(names.suggestion(for: name, kind: "entities"))")
    }

    /// Checks that every component of `keyPath` (read from `entity`) names a property of the
    /// entity reached so far: an attribute, a composite attribute's element, a relationship or
    /// a fetched property. A collection operator (`@count`) ends the check; `what` says where the
    /// key path comes from in the error.
    func check(_ keyPath: String, from entity: EntitySchema, in what: String) throws {
        var components = keyPath.split(separator: ".").map(String.init)[...]
        if let first = components.first, first.lowercased() == "self" { components.removeFirst() }
        var current = entity
        while let key = components.first, !key.hasPrefix("@") {
            if let leaf = current.compositeLeaf(startingWith: components) {
                components.removeFirst(leaf.keyCount)
                continue
            }
            components.removeFirst()
            if current.attributesByName[key] != nil || current.fetchedProperties.contains(where: { $0.name == key }) {
                continue
            }
            guard let relationship = current.relationshipsByName[key] else {
                let names = ClosestNames(
                    candidates: current.attributes.map(\.name) + current.relationships.map(\.name)
                        + current.fetchedProperties.map(\.name))
                let path = keyPath == key ? "" : " (in the key path '\(keyPath)')"
                throw CommandFailure(
                    description: "Entity '\(current.name)' has no property '\(key)'\(path), named in \(what): "
                        + names.suggestion(for: key, kind: "properties"))
            }
            guard let destination = schema.entitiesByName[relationship.destinationEntityName] else { return }
            current = destination
        }
    }

    /// The relationship `name` of `entity`, or an error naming the closest relationships.
    func relationship(named name: String, of entity: EntitySchema) throws -> RelationshipDescription {
        if let relationship = entity.relationshipsByName[name] { return relationship }
        let names = ClosestNames(candidates: entity.relationships.map(\.name))
        throw CommandFailure(
            description: "Entity '\(entity.name)' has no relationship '\(name)' to follow: "
                + names.suggestion(for: name, kind: "relationships"))
    }
}
