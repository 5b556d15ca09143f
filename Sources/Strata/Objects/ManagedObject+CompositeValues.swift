extension ManagedObject {
    /// The values of the composite attribute `key` (or of a composite nested in one, such as
    /// `"address.geo"`), keyed by each leaf element's path from it: `["city": "Lyon",
    /// "geo.latitude": 45.76]`, with ``AttributeValue/null`` for elements without a value.
    ///
    /// Each element is also an attribute of its own: `value(forKey: "address.city")` reads
    /// one, and predicates and sort descriptors name it the same way.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey`` when the entity
    ///   has no composite attribute `key`, or the error firing the fault gave.
    public func compositeValue(forKey key: String) throws -> [String: AttributeValue] {
        let leaves = try compositeLeaves(of: key)
        var values: [String: AttributeValue] = [:]
        for leaf in leaves {
            values[String(leaf.dropFirst(key.count + 1))] = try value(forKey: leaf)
        }
        return values
    }

    /// Replaces the whole value of the composite attribute `key`: each leaf element takes its
    /// value from `values` (keyed by its path from `key`, as ``compositeValue(forKey:)`` gives
    /// them), converted to its type, and elements missing from `values` are cleared.
    ///
    /// Nothing changes when any value is refused.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey`` when `key` is no
    ///   composite attribute or `values` names an element it does not have, or
    ///   ``ContextError/Code/wrongType`` when an element cannot hold its value without loss.
    public func setCompositeValue(_ values: [String: AttributeValue], forKey key: String) throws {
        let leaves = try compositeLeaves(of: key)
        let paths = Set(leaves.map { String($0.dropFirst(key.count + 1)) })
        if let unknown = values.keys.sorted().first(where: { !paths.contains($0) }) {
            throw unknownKey("\(key).\(unknown)", expected: "element of the composite attribute '\(key)'")
        }
        var converted: [(slot: Int, value: AttributeValue)] = []
        for leaf in leaves {
            guard let property = entity.properties[leaf], let type = property.attributeType else { continue }
            let value = values[String(leaf.dropFirst(key.count + 1))] ?? .null
            guard let typed = type.coerce(value) else {
                throw ContextError(
                    code: .wrongType,
                    message: "'\(entity.name).\(leaf)' is \(type.modelFileName); it cannot hold \(value).")
            }
            converted.append((property.slot, typed))
        }
        try willAccessValues()
        for (slot, value) in converted { setPrimitiveValue(value, atSlot: slot) }
    }

    private func compositeLeaves(of key: String) throws -> [String] {
        guard let leaves = entity.compositeLeaves[key] else {
            throw unknownKey(key, expected: "composite attribute")
        }
        return leaves
    }
}
