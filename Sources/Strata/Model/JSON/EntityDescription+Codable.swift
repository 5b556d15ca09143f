extension EntityDescription: Codable {
    private enum Key: String, CodingKey {
        case name, className, abstract, superentity, attributes, relationships, fetchedProperties
        case uniquenessConstraints, fetchIndexes, renamingIdentifier, versionHashModifier, userInfo
        case searchDisplayNameExpression
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(className, forKey: .className)
        try c.encodeFlag(isAbstract, forKey: .abstract)
        try c.encodeIfPresent(superentityName, forKey: .superentity)
        try c.encodeUnlessEmpty(attributes, forKey: .attributes)
        try c.encodeUnlessEmpty(relationships, forKey: .relationships)
        try c.encodeUnlessEmpty(fetchedProperties, forKey: .fetchedProperties)
        try c.encodeUnlessEmpty(uniquenessConstraints, forKey: .uniquenessConstraints)
        try c.encodeUnlessEmpty(fetchIndexes, forKey: .fetchIndexes)
        try c.encodeIfPresent(renamingIdentifier, forKey: .renamingIdentifier)
        try c.encodeIfPresent(versionHashModifier, forKey: .versionHashModifier)
        try c.encodeUnlessEmpty(userInfo, forKey: .userInfo)
        try c.encodeIfPresent(searchDisplayNameExpression, forKey: .searchDisplayNameExpression)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(
            name: try c.decode(String.self, forKey: .name),
            isAbstract: try c.decodeFlag(forKey: .abstract),
            superentityName: try c.decodeIfPresent(String.self, forKey: .superentity),
            attributes: try c.decodeOrEmpty([AttributeDescription].self, forKey: .attributes),
            relationships: try c.decodeOrEmpty([RelationshipDescription].self, forKey: .relationships),
            fetchedProperties: try c.decodeOrEmpty([FetchedPropertyDescription].self, forKey: .fetchedProperties),
            uniquenessConstraints: try c.decodeOrEmpty([[String]].self, forKey: .uniquenessConstraints),
            fetchIndexes: try c.decodeOrEmpty([FetchIndexDescription].self, forKey: .fetchIndexes),
            className: try c.decodeIfPresent(String.self, forKey: .className))
        renamingIdentifier = try c.decodeIfPresent(String.self, forKey: .renamingIdentifier)
        versionHashModifier = try c.decodeIfPresent(String.self, forKey: .versionHashModifier)
        userInfo = try c.decodeOrEmpty([String: String].self, forKey: .userInfo)
        searchDisplayNameExpression = try c.decodeIfPresent(String.self, forKey: .searchDisplayNameExpression)
    }
}
