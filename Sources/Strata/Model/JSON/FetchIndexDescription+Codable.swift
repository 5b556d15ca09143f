extension FetchIndexDescription: Codable {
    private enum Key: String, CodingKey { case name, elements, partialIndexPredicate }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        try c.encode(elements, forKey: .elements)
        try c.encodeIfPresent(partialIndexPredicate, forKey: .partialIndexPredicate)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(
            name: try c.decode(String.self, forKey: .name), elements: try c.decode([Element].self, forKey: .elements),
            partialIndexPredicate: try c.decodeIfPresent(String.self, forKey: .partialIndexPredicate))
    }
}

extension FetchIndexDescription.Element: Codable {
    private enum Key: String, CodingKey { case property, kind, ascending }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(propertyName, forKey: .property)
        try c.encode(kind, forKey: .kind)
        try c.encode(isAscending, forKey: .ascending)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(
            propertyName: try c.decode(String.self, forKey: .property),
            kind: try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .binary,
            isAscending: try c.decodeIfPresent(Bool.self, forKey: .ascending) ?? true)
    }
}
