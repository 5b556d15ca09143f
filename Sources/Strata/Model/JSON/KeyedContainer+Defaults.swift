/// Helpers that leave default values out of the model's JSON form, so that the form is
/// short and canonical (one encoding per model).
extension KeyedEncodingContainer {
    mutating func encodeFlag(_ flag: Bool, forKey key: Key) throws {
        if flag { try encode(true, forKey: key) }
    }

    mutating func encodeUnlessEmpty<C: Collection & Encodable>(_ collection: C, forKey key: Key) throws {
        if !collection.isEmpty { try encode(collection, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    func decodeFlag(forKey key: Key) throws -> Bool {
        try decodeIfPresent(Bool.self, forKey: key) ?? false
    }

    func decodeOrEmpty<C: RangeReplaceableCollection & Decodable>(_ type: C.Type, forKey key: Key) throws -> C {
        try decodeIfPresent(C.self, forKey: key) ?? C()
    }

    func decodeOrEmpty(_ type: [String: String].Type, forKey key: Key) throws -> [String: String] {
        try decodeIfPresent(type, forKey: key) ?? [:]
    }
}
