extension FetchRequestTemplate: Codable {
    private enum Key: String, CodingKey { case name, entity, predicate }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        try c.encode(entityName, forKey: .entity)
        try c.encodeIfPresent(predicateFormat, forKey: .predicate)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(
            name: try c.decode(String.self, forKey: .name), entityName: try c.decode(String.self, forKey: .entity),
            predicateFormat: try c.decodeIfPresent(String.self, forKey: .predicate))
    }
}
