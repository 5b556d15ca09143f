import Foundation

extension ManagedObject {
    /// The value of the transformable attribute `key`: its stored data turned back into a value
    /// by the attribute's transformer, from the coordinator's
    /// ``PersistentStoreCoordinator/valueTransformers``; `nil` when the attribute holds no value.
    ///
    /// ``value(forKey:)`` gives the stored data itself, which is what stores keep, predicates
    /// compare and history records.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey`` when `key` is not a
    ///   transformable attribute, ``ContextError/Code/valueTransformation`` when the transformer
    ///   is not registered or cannot read the data, or the error firing the fault gave.
    public func transformedValue(forKey key: String) throws -> (any Sendable)? {
        let (attribute, transformer) = try transformable(key)
        guard case .binary(let data) = try value(forKey: key) else { return nil }
        do {
            return try transformer.value(from: data)
        } catch {
            throw transformationFailure(
                attribute, "its transformer '\(attribute.valueTransformerName ?? "")' cannot read the stored data",
                error)
        }
    }

    /// The value of the transformable attribute `key` as a `Value` (see
    /// ``transformedValue(forKey:)``); `nil` when it holds no value.
    ///
    /// - Throws: As ``transformedValue(forKey:)``, and ``ContextError/Code/wrongType`` when the
    ///   transformer gives a value of another type.
    public func transformedValue<Value: Sendable>(forKey key: String, as type: Value.Type) throws -> Value? {
        guard let value = try transformedValue(forKey: key) else { return nil }
        guard let typed = value as? Value else {
            throw ContextError(
                code: .wrongType,
                message: "'\(entity.name).\(key)' of \(objectID) holds a \(Swift.type(of: value)), not a \(Value.self)."
            )
        }
        return typed
    }

    /// Sets the transformable attribute `key` to `value`, stored as the data the attribute's
    /// transformer makes of it; `nil` clears it.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey`` when `key` is not a
    ///   transformable attribute, ``ContextError/Code/valueTransformation`` when the transformer
    ///   is not registered or refuses the value.
    public func setTransformedValue(_ value: (any Sendable)?, forKey key: String) throws {
        let (attribute, transformer) = try transformable(key)
        guard let value else {
            try setValue(.null, forKey: key)
            return
        }
        let data: Data
        do {
            data = try transformer.data(from: value)
        } catch {
            throw transformationFailure(
                attribute,
                "its transformer '\(attribute.valueTransformerName ?? "")' cannot store a "
                    + "\(type(of: value))", error)
        }
        try setValue(.binary(data), forKey: key)
    }

    /// The transformable attribute `key` and its registered transformer.
    private func transformable(_ key: String) throws -> (AttributeDescription, any AttributeValueTransformer) {
        guard let attribute = entity.attributesByName[key], attribute.type == .transformable else {
            throw unknownKey(key, expected: "transformable attribute")
        }
        guard let name = attribute.valueTransformerName,
            let transformer = try liveContext().coordinator.valueTransformers.transformer(named: name)
        else {
            throw transformationFailure(
                attribute,
                "no value transformer '\(attribute.valueTransformerName ?? "")' is registered with the "
                    + "coordinator", nil)
        }
        return (attribute, transformer)
    }

    private func transformationFailure(
        _ attribute: AttributeDescription, _ reason: String, _ underlying: (any Error)?
    ) -> ContextError {
        let detail = underlying.map { ": \($0)" } ?? ""
        return ContextError(
            code: .valueTransformation,
            message: "'\(entity.name).\(attribute.name)' of \(objectID): \(reason)\(detail).",
            underlying: underlying)
    }
}
