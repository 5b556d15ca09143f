extension RelationshipDescription: Codable {
    private enum Key: String, CodingKey {
        case name, destination, inverse, toMany, ordered, minCount, maxCount, deleteRule, optional, transient
        case renamingIdentifier, versionHashModifier, userInfo
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        try c.encode(destinationEntityName, forKey: .destination)
        try c.encodeIfPresent(inverseName, forKey: .inverse)
        try c.encodeFlag(isToMany, forKey: .toMany)
        try c.encodeFlag(isOrdered, forKey: .ordered)
        try c.encode(minCount, forKey: .minCount)
        try c.encode(maxCount, forKey: .maxCount)
        try c.encode(deleteRule, forKey: .deleteRule)
        try c.encode(isOptional, forKey: .optional)
        try c.encodeFlag(isTransient, forKey: .transient)
        try c.encodeIfPresent(renamingIdentifier, forKey: .renamingIdentifier)
        try c.encodeIfPresent(versionHashModifier, forKey: .versionHashModifier)
        try c.encodeUnlessEmpty(userInfo, forKey: .userInfo)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let isToMany = try c.decodeFlag(forKey: .toMany)
        self.init(
            name: try c.decode(String.self, forKey: .name),
            destinationEntityName: try c.decode(String.self, forKey: .destination),
            inverseName: try c.decodeIfPresent(String.self, forKey: .inverse),
            isToMany: isToMany,
            isOrdered: try c.decodeFlag(forKey: .ordered),
            minCount: try c.decodeIfPresent(Int.self, forKey: .minCount) ?? 0,
            maxCount: try c.decodeIfPresent(Int.self, forKey: .maxCount) ?? (isToMany ? 0 : 1),
            deleteRule: try c.decodeIfPresent(DeleteRule.self, forKey: .deleteRule) ?? .nullify,
            isOptional: try c.decodeIfPresent(Bool.self, forKey: .optional) ?? true,
            isTransient: try c.decodeFlag(forKey: .transient),
            renamingIdentifier: try c.decodeIfPresent(String.self, forKey: .renamingIdentifier),
            versionHashModifier: try c.decodeIfPresent(String.self, forKey: .versionHashModifier),
            userInfo: try c.decodeOrEmpty([String: String].self, forKey: .userInfo))
    }
}
