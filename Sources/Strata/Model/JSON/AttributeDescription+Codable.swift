extension AttributeDescription: Codable {
    private enum Key: String, CodingKey {
        case name, type, optional, transient, defaultValue, minValue, maxValue, minLength, maxLength
        case regularExpression, preservesValueInHistoryOnDeletion, allowsExternalBinaryDataStorage, indexed
        case indexedForSearch
        case valueTransformerName, derivationExpression, renamingIdentifier, versionHashModifier, userInfo
        case elements
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        try c.encode(type.modelFileName, forKey: .type)
        try c.encode(isOptional, forKey: .optional)
        try c.encodeFlag(isTransient, forKey: .transient)
        if !defaultValue.isNull { try c.encode(defaultValue, forKey: .defaultValue) }
        try c.encodeIfPresent(minValue, forKey: .minValue)
        try c.encodeIfPresent(maxValue, forKey: .maxValue)
        try c.encodeIfPresent(minLength, forKey: .minLength)
        try c.encodeIfPresent(maxLength, forKey: .maxLength)
        try c.encodeIfPresent(regularExpression, forKey: .regularExpression)
        try c.encodeFlag(preservesValueInHistoryOnDeletion, forKey: .preservesValueInHistoryOnDeletion)
        try c.encodeFlag(allowsExternalBinaryDataStorage, forKey: .allowsExternalBinaryDataStorage)
        try c.encodeFlag(isIndexed, forKey: .indexed)
        try c.encodeFlag(isIndexedForSearch, forKey: .indexedForSearch)
        try c.encodeIfPresent(valueTransformerName, forKey: .valueTransformerName)
        try c.encodeIfPresent(derivationExpression, forKey: .derivationExpression)
        try c.encodeIfPresent(renamingIdentifier, forKey: .renamingIdentifier)
        try c.encodeIfPresent(versionHashModifier, forKey: .versionHashModifier)
        try c.encodeUnlessEmpty(userInfo, forKey: .userInfo)
        try c.encodeUnlessEmpty(elements, forKey: .elements)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let typeName = try c.decode(String.self, forKey: .type)
        guard let type = AttributeType(modelFileName: typeName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "'\(typeName)' is not an attribute type.")
        }
        self.init(name: try c.decode(String.self, forKey: .name), type: type)
        isOptional = try c.decodeIfPresent(Bool.self, forKey: .optional) ?? true
        isTransient = try c.decodeFlag(forKey: .transient)
        defaultValue = try c.decodeIfPresent(AttributeValue.self, forKey: .defaultValue) ?? .null
        minValue = try c.decodeIfPresent(AttributeValue.self, forKey: .minValue)
        maxValue = try c.decodeIfPresent(AttributeValue.self, forKey: .maxValue)
        minLength = try c.decodeIfPresent(Int.self, forKey: .minLength)
        maxLength = try c.decodeIfPresent(Int.self, forKey: .maxLength)
        regularExpression = try c.decodeIfPresent(String.self, forKey: .regularExpression)
        preservesValueInHistoryOnDeletion = try c.decodeFlag(forKey: .preservesValueInHistoryOnDeletion)
        allowsExternalBinaryDataStorage = try c.decodeFlag(forKey: .allowsExternalBinaryDataStorage)
        isIndexed = try c.decodeFlag(forKey: .indexed)
        isIndexedForSearch = try c.decodeFlag(forKey: .indexedForSearch)
        valueTransformerName = try c.decodeIfPresent(String.self, forKey: .valueTransformerName)
        derivationExpression = try c.decodeIfPresent(String.self, forKey: .derivationExpression)
        renamingIdentifier = try c.decodeIfPresent(String.self, forKey: .renamingIdentifier)
        versionHashModifier = try c.decodeIfPresent(String.self, forKey: .versionHashModifier)
        userInfo = try c.decodeOrEmpty([String: String].self, forKey: .userInfo)
        elements = try c.decodeOrEmpty([AttributeDescription].self, forKey: .elements)
    }
}
