extension FetchedPropertyDescription: Codable {
    private enum Key: String, CodingKey { case name, destination, predicate, userInfo }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        try c.encode(destinationEntityName, forKey: .destination)
        try c.encodeIfPresent(predicateFormat, forKey: .predicate)
        try c.encodeUnlessEmpty(userInfo, forKey: .userInfo)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(
            name: try c.decode(String.self, forKey: .name),
            destinationEntityName: try c.decode(String.self, forKey: .destination),
            predicateFormat: try c.decodeIfPresent(String.self, forKey: .predicate),
            userInfo: try c.decodeOrEmpty([String: String].self, forKey: .userInfo))
    }
}
