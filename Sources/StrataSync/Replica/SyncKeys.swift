import Strata

/// The names properties sync under: a property's renaming identifier when it has one, else its
/// name. A property renamed in a later model version keeps its first name as its renaming
/// identifier (Xcode's "Renaming ID"), so replicas on versions before and after the rename
/// write the same key, and each shows it under its own name.
enum SyncKeys {
    /// The key `attribute` syncs under.
    static func key(of attribute: AttributeDescription) -> String { attribute.renamingIdentifier ?? attribute.name }

    /// The key `relationship` syncs under.
    static func key(of relationship: RelationshipDescription) -> String {
        relationship.renamingIdentifier ?? relationship.name
    }

    /// The attribute of `entity` that syncs under `key`.
    static func attribute(_ key: String, in entity: EntitySchema) -> AttributeDescription? {
        if let named = entity.attributesByName[key], named.renamingIdentifier == nil { return named }
        return entity.attributes.first { self.key(of: $0) == key }
    }

    /// The relationship of `entity` that syncs under `key`.
    static func relationship(_ key: String, in entity: EntitySchema) -> RelationshipDescription? {
        if let named = entity.relationshipsByName[key], named.renamingIdentifier == nil { return named }
        return entity.relationships.first { self.key(of: $0) == key }
    }

    /// The key the property `name` of `entity` syncs under.
    static func key(ofProperty name: String, in entity: EntitySchema) -> String {
        if let attribute = entity.attributesByName[name] { return key(of: attribute) }
        return entity.relationshipsByName[name].map(key(of:)) ?? name
    }
}
